import { loginRoute, refreshRoute } from "@allot/contract/auth/routes";
import { changePasswordRoute, requestPasswordResetRoute } from "@allot/contract/credentials/routes";
import type { RouteSpec } from "@allot/contract/http/route";
import { inviteRoute } from "@allot/contract/invitations/routes";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import type { ThrottleCheck } from "@allot/domain/throttle/throttle-windows";
import type { FastifyRequest } from "fastify";
import type { ApiConfig } from "../config";
import { clientNetwork } from "./client-network";

// Bounds guessing the current password through a stolen session (docs/spec/operations.md).
const CHANGE_PASSWORD_PER_USER = parseThrottleRates("10/hour");
// Defaults of THROTTLE_RATE_INVITATIONS and THROTTLE_RATE_PASSWORD_RESET_EMAIL: each sends email.
const INVITATIONS_PER_USER = parseThrottleRates("20/day");
const PASSWORD_RESET_EMAILS_PER_ADDRESS = parseThrottleRates("5/hour");
// Longer than any address the contracts accept: such a request is a 400, not a key to store.
const MAX_EMAIL_LENGTH = 254;

/** What one request is counted against: its caller (user or anonymous network) plus per-route limits. */
export function throttleChecksFor(
  request: FastifyRequest,
  route: RouteSpec,
  config: ApiConfig,
): ThrottleCheck[] {
  const { throttle } = config;
  const actor = request.allot?.actor;
  const checks: ThrottleCheck[] = [
    actor ? { key: `user:${actor.userId}`, rates: throttle.user } : anonymousCheck(request, config),
  ];
  // Failed logins per email and network are counted by the login procedure (login-failures.ts).
  if (route === loginRoute)
    checks.push({ key: `login-ip:${clientNetwork(request.ip)}`, rates: throttle.loginPerIp });
  if (route === refreshRoute)
    checks.push({ key: `refresh-ip:${clientNetwork(request.ip)}`, rates: throttle.refreshPerIp });
  if (route === changePasswordRoute && actor) {
    checks.push({
      key: `change-password:${actor.userId}`,
      rates: throttle.changePasswordPerUser ?? CHANGE_PASSWORD_PER_USER,
    });
  }
  // Every invitation request counts, refused ones (409, 429) included: see decision 0025.
  if (route === inviteRoute && actor) {
    checks.push({
      key: `invitations:${actor.userId}`,
      rates: throttle.invitationsPerUser ?? INVITATIONS_PER_USER,
    });
  }
  if (route === requestPasswordResetRoute) {
    // Per requested address, known or not, so neither the answer nor the limit tells them apart.
    const address = emailKey((request.body as { email?: unknown } | undefined)?.email);
    if (address) {
      checks.push({
        key: `reset-email:${address}`,
        rates: throttle.passwordResetEmailPerAddress ?? PASSWORD_RESET_EMAILS_PER_ADDRESS,
      });
    }
  }
  return checks;
}

/** The bucket of anonymous requests from the client's network; failed authentications count here too. */
export function anonymousCheck(request: FastifyRequest, config: ApiConfig): ThrottleCheck {
  return { key: `anon:${clientNetwork(request.ip)}`, rates: config.throttle.anon };
}

/** An address as counters key it (trimmed, lower-case, as the use cases compare it); null if unusable. */
export function emailKey(email: unknown): string | null {
  if (typeof email !== "string") return null;
  const address = email.trim().toLowerCase();
  return address && address.length <= MAX_EMAIL_LENGTH ? address : null;
}
