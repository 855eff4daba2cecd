import { logoutRoute } from "@allot/contract/auth/routes";
import { logout } from "@allot/domain/auth/logout";
import { clearRefreshCookie, REFRESH_COOKIE } from "../../auth/refresh-cookie";
import { procedureFor } from "../../trpc/trpc";

export const logoutProcedure = procedureFor(logoutRoute).mutation(async ({ ctx }) => {
  await logout(ctx.db, ctx.request.cookies[REFRESH_COOKIE]);
  clearRefreshCookie(ctx.reply, ctx.config);
});
