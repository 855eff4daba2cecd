import { authRoutes } from "@allot/contract/auth/routes";
import { credentialRoutes } from "@allot/contract/credentials/routes";
import type { RouteSpec } from "@allot/contract/http/route";
import { invitationRoutes } from "@allot/contract/invitations/routes";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import type { ThrottleCheck } from "@allot/domain/throttle/throttle-windows";
import type { FastifyRequest } from "fastify";
import type { ApiConfig } from "../config";
import { clientNetwork } from "./client-network";

// Bounds guessing the current password through a stolen session (docs/spec/operations.md).
const CHANGE_PASSWORD_PER_USER = parseThrottleRates("10/hour");
// Defaults of THROTTLE_RATE_INVITATIONS, THROTTLE_RATE_PASSWORD_RESET_EMAIL and
// THROTTLE_RATE_PASSWORD_RESET_EMAIL_CEILING: each request may send an email.
const INVITATIONS_PER_USER = parseThrottleRates("20/day");
const PASSWORD_RESET_EMAILS_PER_ADDRESS_AND_NETWORK = parseThrottleRates("5/hour");
const PASSWORD_RESET_EMAILS_PER_ADDRESS = parseThrottleRates("20/hour");
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
  if (route === authRoutes.login)
    checks.push({ key: `login-ip:${clientNetwork(request.ip)}`, rates: throttle.loginPerIp });
  if (route === authRoutes.refresh)
    checks.push({ key: `refresh-ip:${clientNetwork(request.ip)}`, rates: throttle.refreshPerIp });
  if (route === credentialRoutes.changePassword && actor) {
    checks.push({
      key: `change-password:${actor.userId}`,
      rates: throttle.changePasswordPerUser ?? CHANGE_PASSWORD_PER_USER,
    });
  }
  // Every invitation request counts, refused ones (409, 429) included: see decision 0025.
  if (route === invitationRoutes.invite && actor) {
    checks.push({
      key: `invitations:${actor.userId}`,
      rates: throttle.invitationsPerUser ?? INVITATIONS_PER_USER,
    });
  }
  if (route === credentialRoutes.requestPasswordReset) {
    // Per requested address (known or not, so neither the answer nor the limit tells them apart)
    // and client network: a stranger spends their own network's share, not the owner's.
    const address = resetAddressOf(request);
    if (address) {
      checks.push({
        key: `reset-email:${clientNetwork(request.ip)}:${address}`,
        rates: throttle.passwordResetEmailPerAddress ?? PASSWORD_RESET_EMAILS_PER_ADDRESS_AND_NETWORK,
      });
    }
  }
  return checks;
}

/**
 * What a request is counted against once `throttleChecksFor` admitted it: the per-address ceiling
 * of reset emails across all networks. Counted only then, so a network's refused requests never
 * spend the address's ceiling (decision 0050).
 */
export function admittedThrottleChecksFor(
  request: FastifyRequest,
  route: RouteSpec,
  config: ApiConfig,
): ThrottleCheck[] {
  if (route !== credentialRoutes.requestPasswordReset) return [];
  const address = resetAddressOf(request);
  if (!address) return [];
  return [
    {
      key: `reset-email-address:${address}`,
      rates: config.throttle.passwordResetEmailCeiling ?? PASSWORD_RESET_EMAILS_PER_ADDRESS,
    },
  ];
}

const resetAddressOf = (request: FastifyRequest) =>
  emailKey((request.body as { email?: unknown } | undefined)?.email);

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
