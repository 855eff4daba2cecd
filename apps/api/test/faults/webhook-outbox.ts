import type { Database } from "@allot/db/create-database";
import { webhookDeliveries } from "@allot/db/schema/webhooks";
import { recordEvent } from "@allot/domain/events/record-event";
import type { Actor } from "@allot/domain/shared/actor";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { exampleChange } from "@allot/domain/testing/event-examples";
import { testVault } from "@allot/domain/testing/test-vault";
import { asUser } from "@allot/domain/testing/use-case-context";
import { createWebhook } from "@allot/domain/webhooks/create-webhook";
import { deliverDueWebhooks } from "@allot/domain/webhooks/deliver-webhooks";
import type { WebhookPoster } from "@allot/domain/webhooks/webhook-poster";
import { asc, eq } from "drizzle-orm";
import type { ReceivedWebhook } from "../testing/webhook-receiver";

/*
 * The webhook outbox as the sender tests (process kills, several senders) set it up and read it
 * back, straight on the database: a webhook of one account, events queued for it through
 * recordEvent (one delivery each), the deliveries' state, and what a receiver got.
 */

// The receivers listen on loopback over plain HTTP.
export const LOOPBACK_POLICY = { allowHttp: true, allowPrivate: true };

/** A webhook of `owner` on every event type of `accountId`, made by the use case. */
export async function seedWebhook(db: Database, owner: Actor, accountId: string, url: string) {
  return createWebhook(
    { ...asUser(db, owner), services: { webhookPolicy: LOOPBACK_POLICY, vault: testVault } },
    { url, event_types: ["*"], bank_account: accountId },
  );
}

/**
 * `count` account events recorded in one transaction, each queueing its deliveries through
 * recordEvent as a use case does: they all come due at the one commit.
 */
export async function queueEvents(db: Database, owner: Actor, accountId: string, count: number) {
  const ctx = asUser(db, owner);
  await db.transaction(async (tx) => {
    for (let i = 1; i <= count; i += 1)
      await recordEvent(
        tx,
        ctx,
        exampleChange(accountId, "bank_account.updated", `updated the account (${i} of ${count})`),
      );
  });
}

/** The webhook's deliveries as the outbox holds them, oldest first. */
export function deliveriesOf(db: Database, webhookId: string) {
  return db
    .select({
      eventId: webhookDeliveries.eventId,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      claimedUntil: webhookDeliveries.claimedUntil,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, webhookId))
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id));
}

/** One sender pass (as a sending process makes it) on `db`, as of `at`. */
export function deliverAt(db: Database, poster: WebhookPoster, at: Date) {
  return deliverDueWebhooks({ ...internalContext(db, "scheduler"), now: at }, { poster, vault: testVault });
}

/** How many times the receiver got each webhook-id (an event's id, the same on every attempt). */
export function receiptsById(received: ReceivedWebhook[]): Map<string, number> {
  const receipts = new Map<string, number>();
  for (const request of received) {
    const id = String(request.headers["webhook-id"]);
    receipts.set(id, (receipts.get(id) ?? 0) + 1);
  }
  return receipts;
}
