import type { ActivityEvent } from "@allot/contract/activity/activity-event";
import type { Tx } from "@allot/db/create-database";
import { sql } from "drizzle-orm";
import { WEBHOOK_SENDERS_CHANNEL } from "./wake-webhook-senders";
import { webhookBody } from "./webhook-payload";

/**
 * Queues an account event for every enabled webhook that wants it, in the event's transaction: a
 * webhook of an owner of the account, for that account or all of the owner's, subscribed to the
 * type or to `*`. One statement, whatever the number of webhooks (none, usually); senders are
 * woken when it commits.
 */
export async function enqueueWebhookDeliveries(tx: Tx, event: ActivityEvent) {
  // The NOTIFY only when a row was queued: a change nobody subscribes to wakes no sender.
  await tx.execute(sql`
    with queued as (
      insert into webhook_deliveries (webhook_id, event_id, event_type, bank_account_id, body, created_at, next_attempt_at)
      select w.id, ${event.id}::uuid, ${event.type}, ${event.bank_account}::uuid, ${webhookBody(event)},
             ${event.occurred_at}::timestamptz, ${event.occurred_at}::timestamptz
      from bank_account_owners o
      join webhooks w on w.user_id = o.user_id
      where o.bank_account_id = ${event.bank_account}::uuid
        and w.enabled
        and (w.bank_account_id is null or w.bank_account_id = o.bank_account_id)
        and (w.event_types @> array['*'] or w.event_types @> array[${event.type}::text])
      returning 1
    )
    select pg_notify(${WEBHOOK_SENDERS_CHANNEL}, '') from queued limit 1`);
}
