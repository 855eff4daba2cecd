import { loginRoute } from "@allot/contract/auth/routes";
import { login } from "@allot/domain/auth/login";
import { setRefreshCookie } from "../../auth/refresh-cookie";
import { countingLoginFailures } from "../../throttle/login-failures";
import { procedureFor } from "../../trpc/trpc";

export const loginProcedure = procedureFor(loginRoute).mutation(async ({ ctx, input }) => {
  const credentials = await countingLoginFailures(ctx, input.email, () => login(ctx.db, ctx.tokens, input));
  setRefreshCookie(ctx.reply, ctx.config, credentials);
  return { access: credentials.access };
});
