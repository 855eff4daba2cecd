import type { SecretsKeys } from "@allot/domain/secrets/secret-vault";
import type { ThrottleRate } from "@allot/domain/throttle/throttle-rate";
import type { WebhookPolicy } from "@allot/domain/webhooks/address-policy";
import type { TrustProxy } from "./http/trust-proxy";

/** Everything the API needs from its environment; built by env.ts, or by tests directly. */
export interface ApiConfig {
  jwtSecret: string;
  /** The key secrets are sealed with at rest (SECRETS_KEY, else JWT_SECRET) and the one it replaced. */
  secrets: SecretsKeys;
  publicBaseUrl: string;
  /** Rotate the refresh cookie on every refresh. */
  refreshRotation: boolean;
  /** Per-caller limits; each list is checked in full (e.g. a per-minute burst and an hourly cap). */
  throttle: {
    user: ThrottleRate[];
    anon: ThrottleRate[];
    /** Login attempts per client network (an IPv4 address, an IPv6 /64). */
    loginPerIp: ThrottleRate[];
    /** Failed logins per email and client network; once used up, that pair is refused (429). */
    loginPerEmail: ThrottleRate[];
    refreshPerIp: ThrottleRate[];
    /** Per user, on change-password; docs/spec/operations.md's 10/hour when left out. */
    changePasswordPerUser?: ThrottleRate[];
    /** Invitation requests per user (each may send an email); 20/day when left out. */
    invitationsPerUser?: ThrottleRate[];
    /** Password-reset requests per requested address (known or not) and client network; 5/hour when left out. */
    passwordResetEmailPerAddress?: ThrottleRate[];
    /** Password-reset requests per requested address across all networks; 20/hour when left out. */
    passwordResetEmailCeiling?: ThrottleRate[];
  };
  /** The reverse proxies whose X-Forwarded-For gives `request.ip` (TRUST_PROXY); none when left out. */
  trustProxy?: TrustProxy;
  /** Where webhooks may be sent (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE): https to public hosts by default. */
  webhooks: WebhookPolicy;
  /** How long an Idempotency-Key's answer is replayed (IDEMPOTENCY_TTL_HOURS, 24). */
  idempotencyTtlHours: number;
  /** The largest receipt file accepted, in bytes (ATTACHMENT_MAX_BYTES, 10 MB). */
  attachmentMaxBytes: number;
  /** Send the refresh cookie with Secure (off only for plain-HTTP local development tests). */
  secureCookies: boolean;
}
