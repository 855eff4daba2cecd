import type { WebhookEventType } from "@allot/contract/webhooks/webhook";
import type { Tx } from "@allot/db/create-database";
import { webhookDeliveries } from "@allot/db/schema/webhooks";
import { wakeSendersAtCommit } from "../events/wake-webhook-senders";
import { Conflict } from "../shared/errors";
import { toDeliveryView } from "./webhook-view";

/** The refusal of a test or redelivery to a disabled webhook: it would never be sent. */
export const webhookDisabled = () =>
  new Conflict("This webhook is disabled; enable it (PATCH enabled=true) to send to it.", "webhook_disabled");

/** A delivery queued by hand (test, redeliver), due now; the answer's view of it. */
export async function queueDelivery(
  tx: Tx,
  values: {
    webhookId: string;
    eventId: string;
    eventType: WebhookEventType;
    bankAccountId: string | null;
    body: string;
    now: Date;
  },
) {
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({ ...values, createdAt: values.now, nextAttemptAt: values.now })
    .returning();
  if (!row) throw new Error("delivery insert returned nothing");
  await wakeSendersAtCommit(tx);
  return toDeliveryView(row);
}
