import { changePasswordRoute } from "@allot/contract/credentials/routes";
import { changePassword } from "@allot/domain/credentials/change-password";
import { setRefreshCookie } from "../../auth/refresh-cookie";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const changePasswordProcedure = procedureFor(changePasswordRoute).mutation(async ({ ctx, input }) => {
  const credentials = await changePassword(ctx.db, ctx.tokens, actorOf(ctx), {
    currentPassword: input.current_password,
    newPassword: input.new_password,
    confirmPassword: input.confirm_password,
  });
  // The caller's session goes on with a fresh refresh token; its old cookie has been blacklisted.
  setRefreshCookie(ctx.http.reply, ctx.config, credentials);
});
