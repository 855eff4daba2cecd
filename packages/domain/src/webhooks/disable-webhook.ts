import type { WebhookDisabledReason } from "@allot/contract/webhooks/webhook";
import type { Tx } from "@allot/db/create-database";
import { webhookDeliveries, webhooks } from "@allot/db/schema/webhooks";
import { and, eq, inArray } from "drizzle-orm";

/**
 * Turns webhooks off (their owner, a 410 answer, five days of failures, or a credential taken
 * back): their pending deliveries fail with `note` rather than wait to be sent days late, and can
 * be redelivered by hand.
 */
export async function disableWebhooks(
  tx: Tx,
  webhookIds: string[],
  reason: WebhookDisabledReason,
  note: string,
) {
  if (webhookIds.length === 0) return;
  await tx
    .update(webhooks)
    .set({ enabled: false, disabledReason: reason })
    .where(inArray(webhooks.id, webhookIds));
  await tx
    .update(webhookDeliveries)
    .set({ status: "failed", nextAttemptAt: null, claimedUntil: null, lastError: note })
    .where(and(inArray(webhookDeliveries.webhookId, webhookIds), eq(webhookDeliveries.status, "pending")));
}

/** Turns one webhook off; see `disableWebhooks`. */
export const disableWebhook = (tx: Tx, webhookId: string, reason: WebhookDisabledReason, note: string) =>
  disableWebhooks(tx, [webhookId], reason, note);
