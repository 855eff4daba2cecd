import { Unauthenticated } from "@allot/domain/shared/errors";
import type { ThrottleCheck } from "@allot/domain/throttle/throttle-windows";
import type { ApiConfig } from "../config";
import { clientNetwork } from "./client-network";
import { emailKey } from "./throttle-checks";
import type { ThrottleStore } from "./throttle-store";

interface LoginContext {
  throttleStore: ThrottleStore;
  request: { ip: string | null };
  config: ApiConfig;
}

/**
 * Runs a login attempt under the per-email limit (decision 0025): only failed logins count, per
 * email AND client network, so guessing from one network locks that network out of that account
 * while its owner, elsewhere, still logs in. A pair that has used up its limit is refused (429)
 * before the password is checked. Every failure counts, an unknown or inactive address included:
 * the 401 does not tell them apart, and neither may the lock.
 */
export async function countingLoginFailures<T>(
  context: LoginContext,
  email: string,
  attempt: () => Promise<T>,
): Promise<T> {
  const address = emailKey(email);
  const checks: ThrottleCheck[] = address
    ? [
        {
          key: `login-failed:${clientNetwork(context.request.ip ?? "")}|${address}`,
          rates: context.config.throttle.loginPerEmail,
        },
      ]
    : [];
  await context.throttleStore.refuseIfExhausted(checks);
  try {
    return await attempt();
  } catch (error) {
    if (error instanceof Unauthenticated) await context.throttleStore.record(checks);
    throw error;
  }
}
