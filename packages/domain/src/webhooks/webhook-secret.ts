import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** A new signing secret: `whsec_` + base64 of 32 random bytes, as Standard Webhooks receivers expect. */
export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/** The secrets a webhook signs with at `now`: its own, and a rotated-out one for its last 24 hours. */
export interface SigningSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * The three headers of a delivery, signed by the `standardwebhooks` package itself (the reference
 * implementation receivers verify with): one `v1,` signature per live secret, space-separated.
 */
export function signedHeaders(
  secrets: SigningSecrets,
  delivery: { eventId: string; body: string },
  now: Date,
): Record<string, string> {
  const live = [secrets.secret];
  if (secrets.previousSecret && secrets.previousSecretExpiresAt && secrets.previousSecretExpiresAt > now)
    live.push(secrets.previousSecret);
  return {
    "content-type": "application/json",
    "webhook-id": delivery.eventId,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": live
      .map((secret) => new Webhook(secret).sign(delivery.eventId, now, delivery.body))
      .join(" "),
  };
}
