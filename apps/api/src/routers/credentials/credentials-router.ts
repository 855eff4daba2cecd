import { router } from "../../trpc/trpc";
import { changeEmailProcedure } from "./change-email";
import { changePasswordProcedure } from "./change-password";
import { confirmEmailChangeProcedure } from "./confirm-email-change";
import { confirmPasswordResetProcedure } from "./confirm-password-reset";
import { requestPasswordResetProcedure } from "./request-password-reset";
import { revokeEmailChangeProcedure } from "./revoke-email-change";

/** Password change and reset, email change: in the contract's order (static paths first). */
export const credentialsRouter = router({
  changePassword: changePasswordProcedure,
  changeEmail: changeEmailProcedure,
  confirmEmailChange: confirmEmailChangeProcedure,
  revokeEmailChange: revokeEmailChangeProcedure,
  requestPasswordReset: requestPasswordResetProcedure,
  confirmPasswordReset: confirmPasswordResetProcedure,
});
