import { logoutRoute } from "@allot/contract/auth/routes";
import { logout } from "@allot/domain/auth/logout";
import { clearRefreshCookie, refreshTokenOf } from "../../auth/refresh-cookie";
import { publicProcedureFor } from "../../trpc/trpc";

export const logoutProcedure = publicProcedureFor(logoutRoute).mutation(async ({ ctx, input }) => {
  await logout(ctx, input, { refreshToken: refreshTokenOf(ctx.http.request) });
  clearRefreshCookie(ctx.http.reply, ctx.config);
});
