import { randomUUID } from "node:crypto";
import type { RouteInput } from "@allot/contract/http/route";
import type { webhookRoutes } from "@allot/contract/webhooks/routes";
import { actorName, eventActorOf } from "../events/event-actor";
import { webhookBody } from "../events/webhook-payload";
import type { UseCaseContext } from "../shared/use-case-context";
import { findOwnWebhook } from "./find-own-webhook";
import { queueDelivery, webhookDisabled } from "./new-delivery";

/** Queues a `webhook.test` event, shaped like an activity event, for this webhook alone. */
export async function testWebhook(ctx: UseCaseContext, { id }: RouteInput<typeof webhookRoutes.test>) {
  const { db, actor, now, request } = ctx;
  return db.transaction(async (tx) => {
    const webhook = await findOwnWebhook(tx, actor, id, { forUpdate: true });
    if (!webhook.enabled) throw webhookDisabled();
    const who = eventActorOf(ctx);
    const eventId = randomUUID();
    const body = webhookBody({
      id: eventId,
      type: "webhook.test",
      occurred_at: now.toISOString(),
      bank_account: webhook.bankAccountId,
      actor: { kind: who.kind, username: who.username, api_key: who.apiKey },
      request_id: request.id,
      summary: `${actorName(who)} sent a test event to this webhook`,
      data: { webhook: webhook.id },
    });
    return queueDelivery(tx, {
      webhookId: id,
      eventId,
      eventType: "webhook.test",
      bankAccountId: null,
      body,
      now,
    });
  });
}
