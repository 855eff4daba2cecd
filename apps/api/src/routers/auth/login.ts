import { loginRoute } from "@allot/contract/auth/routes";
import { login } from "@allot/domain/auth/login";
import { setRefreshCookie } from "../../auth/refresh-cookie";
import { countingLoginFailures } from "../../throttle/login-failures";
import { publicProcedureFor } from "../../trpc/trpc";

export const loginProcedure = publicProcedureFor(loginRoute).mutation(async ({ ctx, input }) => {
  const credentials = await countingLoginFailures(ctx, input.email, () =>
    login(ctx, input, { tokens: ctx.tokens }),
  );
  setRefreshCookie(ctx.http.reply, ctx.config, credentials);
  return { access: credentials.access };
});
