import { logoutRoute } from "@allot/contract/auth/routes";
import { logout } from "@allot/domain/auth/logout";
import { clearRefreshCookie, REFRESH_COOKIE } from "../../auth/refresh-cookie";
import { publicProcedureFor } from "../../trpc/trpc";

export const logoutProcedure = publicProcedureFor(logoutRoute).mutation(async ({ ctx, input }) => {
  await logout(ctx, input, { refreshToken: ctx.http.request.cookies[REFRESH_COOKIE] });
  clearRefreshCookie(ctx.http.reply, ctx.config);
});
