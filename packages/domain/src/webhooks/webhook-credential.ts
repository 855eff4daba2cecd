import type { Webhook } from "@allot/contract/webhooks/webhook";
import type { webhooks } from "@allot/db/schema/webhooks";
import type { Actor } from "../shared/actor";

type WebhookRow = typeof webhooks.$inferSelect;

/**
 * The credential a webhook answers to, as its row keeps it: the caller's API key, or the session
 * of their login (refresh rotation keeps the session, so the whole lineage of one login is one).
 */
export const webhookCredentialOf = (actor: Actor) => ({
  credentialSessionId: actor.apiKey ? null : actor.sessionId,
  credentialApiKeyId: actor.apiKey?.uuid ?? null,
});

/** The wire `credential` of a webhook row. */
export function credentialView(row: WebhookRow): Webhook["credential"] {
  if (row.credentialApiKeyId) return { kind: "api_key", api_key: row.credentialApiKeyId };
  if (row.credentialSessionId) return { kind: "login", api_key: null };
  return null;
}

/** How the owner's email names the credential: the key's name and prefix, or their login. */
export const credentialWords = (actor: Actor) =>
  actor.apiKey ? `your API key “${actor.apiKey.name}” (${actor.apiKey.prefix}…)` : "your login";
