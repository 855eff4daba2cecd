import { loginRoute, refreshRoute } from "@allot/contract/auth/routes";
import { changePasswordRoute } from "@allot/contract/credentials/routes";
import type { RouteSpec } from "@allot/contract/http/route";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import type { ThrottleCheck } from "@allot/domain/throttle/throttle-windows";
import type { FastifyRequest } from "fastify";
import type { ApiConfig } from "../config";

// Bounds guessing the current password through a stolen session (operations.md).
const CHANGE_PASSWORD_PER_USER = parseThrottleRates("10/hour");

/** What one request is counted against: its caller (user or anonymous IP) plus per-route limits. */
export function throttleChecksFor(
  request: FastifyRequest,
  route: RouteSpec,
  config: ApiConfig,
): ThrottleCheck[] {
  const { throttle } = config;
  const actor = request.allot?.actor;
  const checks: ThrottleCheck[] = [
    actor
      ? { key: `user:${actor.userId}`, rates: throttle.user }
      : { key: `anon:${request.ip}`, rates: throttle.anon },
  ];
  if (route === loginRoute) {
    checks.push({ key: `login-ip:${request.ip}`, rates: throttle.loginPerIp });
    const email = (request.body as { email?: unknown } | undefined)?.email;
    // Longer than any email (the contract refuses it): not a key to store, counted per IP only.
    if (typeof email === "string" && email.trim() && email.length <= 254) {
      checks.push({ key: `login-email:${email.trim().toLowerCase()}`, rates: throttle.loginPerEmail });
    }
  }
  if (route === refreshRoute) checks.push({ key: `refresh-ip:${request.ip}`, rates: throttle.refreshPerIp });
  if (route === changePasswordRoute && actor) {
    checks.push({
      key: `change-password:${actor.userId}`,
      rates: throttle.changePasswordPerUser ?? CHANGE_PASSWORD_PER_USER,
    });
  }
  return checks;
}
