import { authRoutes } from "@allot/contract/auth/routes";
import { login } from "@allot/domain/auth/login";
import { logout } from "@allot/domain/auth/logout";
import { refreshSession } from "@allot/domain/auth/refresh-session";
import { Unauthenticated } from "@allot/domain/shared/errors";
import { clearRefreshCookie, refreshTokenOf, setRefreshCookie } from "../../auth/refresh-cookie";
import { countingLoginFailures } from "../../throttle/login-failures";
import { bindRoutes } from "../../trpc/bind-routes";

/** The token endpoints, in the contract's order: the refresh token travels in its cookie, never the body. */
export const authRouter = bindRoutes(authRoutes, {
  login: async (ctx, input) => {
    const credentials = await countingLoginFailures(ctx, input.email, () => login(ctx, input));
    setRefreshCookie(ctx.http.reply, ctx.config, credentials);
    return { access: credentials.access };
  },
  refresh: async (ctx) => {
    try {
      const result = await refreshSession(ctx, { refreshToken: refreshTokenOf(ctx.http.request) });
      if (result.rotated) setRefreshCookie(ctx.http.reply, ctx.config, result.rotated);
      return { access: result.access };
    } catch (error) {
      // A cookie that can never work again is dropped, so the client stops sending it.
      if (error instanceof Unauthenticated) clearRefreshCookie(ctx.http.reply, ctx.config);
      throw error;
    }
  },
  logout: async (ctx) => {
    await logout(ctx, { refreshToken: refreshTokenOf(ctx.http.request) });
    clearRefreshCookie(ctx.http.reply, ctx.config);
  },
});
