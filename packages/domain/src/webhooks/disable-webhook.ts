import type { Tx } from "@allot/db/create-database";
import { webhookDeliveries, webhooks } from "@allot/db/schema/webhooks";
import { and, eq } from "drizzle-orm";

/**
 * Turns a webhook off (its owner, a 410 answer, or five days of failures): its pending deliveries
 * fail with `reason` rather than wait to be sent days late, and can be redelivered by hand.
 */
export async function disableWebhook(tx: Tx, webhookId: string, reason: string) {
  await tx.update(webhooks).set({ enabled: false }).where(eq(webhooks.id, webhookId));
  await tx
    .update(webhookDeliveries)
    .set({ status: "failed", nextAttemptAt: null, claimedUntil: null, lastError: reason })
    .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.status, "pending")));
}
