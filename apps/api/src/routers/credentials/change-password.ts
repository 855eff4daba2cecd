import { changePasswordRoute } from "@allot/contract/credentials/routes";
import { changePassword } from "@allot/domain/credentials/change-password";
import { setRefreshCookie } from "../../auth/refresh-cookie";
import { procedureFor } from "../../trpc/trpc";

export const changePasswordProcedure = procedureFor(changePasswordRoute).mutation(async ({ ctx, input }) => {
  const credentials = await changePassword(ctx, input, { tokens: ctx.tokens });
  // The caller's session goes on with a fresh refresh token; its old cookie has been blacklisted.
  setRefreshCookie(ctx.http.reply, ctx.config, credentials);
});
