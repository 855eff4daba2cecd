import type { RouteInput } from "@allot/contract/http/route";
import type { webhookRoutes } from "@allot/contract/webhooks/routes";
import { webhookDeliveries } from "@allot/db/schema/webhooks";
import { and, eq } from "drizzle-orm";
import { NotFound } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { findOwnWebhook } from "./find-own-webhook";
import { queueDelivery, webhookDisabled } from "./new-delivery";

/**
 * Sends a delivery's event again as a new delivery (the old one keeps its history): the same body
 * and `webhook-id`, so a receiver that saw it already can tell.
 */
export async function redeliverWebhook(
  { db, actor, now }: UseCaseContext,
  { id, delivery_id }: RouteInput<typeof webhookRoutes.redeliver>,
) {
  return db.transaction(async (tx) => {
    const webhook = await findOwnWebhook(tx, actor, id, { forUpdate: true });
    const [earlier] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, delivery_id), eq(webhookDeliveries.webhookId, webhook.id)));
    if (!earlier) throw new NotFound("No delivery of this webhook matches the given id.");
    if (!webhook.enabled) throw webhookDisabled();
    return queueDelivery(tx, {
      webhookId: id,
      eventId: earlier.eventId,
      eventType: earlier.eventType,
      bankAccountId: earlier.bankAccountId,
      body: earlier.body,
      now,
    });
  });
}
