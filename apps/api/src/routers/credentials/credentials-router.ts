import { credentialRoutes } from "@allot/contract/credentials/routes";
import { changePassword } from "@allot/domain/credentials/change-password";
import { confirmEmailChange } from "@allot/domain/credentials/confirm-email-change";
import { confirmPasswordReset } from "@allot/domain/credentials/confirm-password-reset";
import { requestEmailChange } from "@allot/domain/credentials/request-email-change";
import { requestPasswordReset } from "@allot/domain/credentials/request-password-reset";
import { revokeEmailChange } from "@allot/domain/credentials/revoke-email-change";
import { setRefreshCookie } from "../../auth/refresh-cookie";
import { bindRoutes } from "../../trpc/bind-routes";

/** Password change and reset, email change: in the contract's order (static paths first). */
export const credentialsRouter = bindRoutes(credentialRoutes, {
  changePassword: async (ctx, input) => {
    const credentials = await changePassword(ctx, input);
    // The caller's session goes on with a fresh refresh token; its old cookie has been blacklisted.
    setRefreshCookie(ctx.http.reply, ctx.config, credentials);
  },
  changeEmail: requestEmailChange,
  confirmEmailChange,
  revokeEmailChange,
  requestPasswordReset,
  confirmPasswordReset,
});
