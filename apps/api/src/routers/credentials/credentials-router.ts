import { credentialRoutes } from "@allot/contract/credentials/routes";
import { changePassword } from "@allot/domain/credentials/change-password";
import { confirmEmailChange } from "@allot/domain/credentials/confirm-email-change";
import { confirmPasswordReset } from "@allot/domain/credentials/confirm-password-reset";
import { requestEmailChange } from "@allot/domain/credentials/request-email-change";
import { requestPasswordReset } from "@allot/domain/credentials/request-password-reset";
import { revokeEmailChange } from "@allot/domain/credentials/revoke-email-change";
import { setRefreshCookie } from "../../auth/refresh-cookie";
import { bindRoutes, withServices } from "../../trpc/bind-routes";
import { emailedLinks } from "../use-case-services";

/** Password change and reset, email change: in the contract's order (static paths first). */
export const credentialsRouter = bindRoutes(credentialRoutes, {
  changePassword: async (ctx, input) => {
    const credentials = await changePassword(ctx, input, { tokens: ctx.tokens });
    // The caller's session goes on with a fresh refresh token; its old cookie has been blacklisted.
    setRefreshCookie(ctx.http.reply, ctx.config, credentials);
  },
  changeEmail: withServices(requestEmailChange, emailedLinks),
  confirmEmailChange,
  revokeEmailChange: withServices(revokeEmailChange, emailedLinks),
  requestPasswordReset,
  confirmPasswordReset,
});
