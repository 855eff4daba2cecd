import { refreshRoute } from "@allot/contract/auth/routes";
import { refreshSession } from "@allot/domain/auth/refresh-session";
import { Unauthenticated } from "@allot/domain/shared/errors";
import { clearRefreshCookie, refreshTokenOf, setRefreshCookie } from "../../auth/refresh-cookie";
import { publicProcedureFor } from "../../trpc/trpc";

export const refreshProcedure = publicProcedureFor(refreshRoute).mutation(async ({ ctx, input }) => {
  try {
    const result = await refreshSession(ctx, input, {
      tokens: ctx.tokens,
      refreshToken: refreshTokenOf(ctx.http.request),
      rotate: ctx.config.refreshRotation,
    });
    if (result.rotated) setRefreshCookie(ctx.http.reply, ctx.config, result.rotated);
    return { access: result.access };
  } catch (error) {
    // A cookie that can never work again is dropped, so the client stops sending it.
    if (error instanceof Unauthenticated) clearRefreshCookie(ctx.http.reply, ctx.config);
    throw error;
  }
});
