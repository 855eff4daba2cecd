import type { Webhook } from "@allot/contract/webhooks/webhook";
import type { Tx } from "@allot/db/create-database";
import { apiKeys } from "@allot/db/schema/api-keys";
import { sessions } from "@allot/db/schema/sessions";
import type { webhooks } from "@allot/db/schema/webhooks";
import { eq } from "drizzle-orm";
import type { Actor } from "../shared/actor";
import { Unauthenticated } from "../shared/errors";

type WebhookRow = typeof webhooks.$inferSelect;

/**
 * The credential a webhook answers to, as its row keeps it: the caller's API key, or the session
 * of their login (refresh rotation keeps the session, so the whole lineage of one login is one).
 */
export const webhookCredentialOf = (actor: Actor) => ({
  credentialSessionId: actor.apiKey ? null : actor.sessionId,
  credentialApiKeyId: actor.apiKey?.uuid ?? null,
});

/**
 * Holds the caller's credential row (`for share`) until the webhook it gives a webhook commits,
 * refusing one revoked meanwhile: authentication may have used a cached credential (up to a
 * second, decision 0045), and a revocation running at the same moment would not see the new row.
 * With the lock, a revocation either waits and then disables the webhook, or comes first.
 */
export async function holdLiveCredential(tx: Tx, actor: Actor) {
  if (actor.apiKey) {
    const [key] = await tx
      .select({ revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .where(eq(apiKeys.id, actor.apiKey.uuid))
      .for("share");
    if (!key || key.revokedAt)
      throw new Unauthenticated("Invalid API key: the key has been revoked.", "authentication_failed");
  } else if (actor.sessionId) {
    const [session] = await tx
      .select({ endedAt: sessions.endedAt })
      .from(sessions)
      .where(eq(sessions.id, actor.sessionId))
      .for("share");
    if (!session || session.endedAt)
      throw new Unauthenticated("Token is invalid: its session has ended.", "token_not_valid");
  }
}

/** The wire `credential` of a webhook row. */
export function credentialView(row: WebhookRow): Webhook["credential"] {
  if (row.credentialApiKeyId) return { kind: "api_key", api_key: row.credentialApiKeyId };
  if (row.credentialSessionId) return { kind: "login", api_key: null };
  return null;
}

/** How the owner's email names the credential: the key's name and prefix, or their login. */
export const credentialWords = (actor: Actor) =>
  actor.apiKey ? `your API key “${actor.apiKey.name}” (${actor.apiKey.prefix}…)` : "your login";
