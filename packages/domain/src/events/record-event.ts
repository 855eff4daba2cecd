import { type ActivityEventData, MAX_IDS_IN_EVENT } from "@allot/contract/activity/activity-event-data";
import type { ActivityEventType } from "@allot/contract/activity/activity-event-types";
import type { Tx } from "@allot/db/create-database";
import { accountEvents } from "@allot/db/schema/account-events";
import type { Actor } from "../shared/actor";
import type { PublicContext } from "../shared/use-case-context";
import { toActivityEventView } from "./activity-event-view";
import { enqueueWebhookDeliveries } from "./enqueue-webhook-deliveries";
import { actorName, eventActorOf } from "./event-actor";

/** An id list as `data` keeps it: the first MAX_IDS_IN_EVENT. */
export const listedIds = (ids: readonly string[]) => ids.slice(0, MAX_IDS_IN_EVENT);

/**
 * What one operation did to an account, as its use case describes it: of type `T`, with that
 * type's data (of any one type, without `T`: a change's `data` is always its own type's).
 */
export type AccountChange<T extends ActivityEventType = ActivityEventType> = {
  [K in T]: {
    accountId: string;
    type: K;
    /** The sentence after the actor's name: "moved 50.00 USD from Unallocated to Groceries". */
    says: string;
    /** What the operation did, with ids; amounts as two-decimal strings (the contract's schema of `type`). */
    data: ActivityEventData<K>;
  };
}[T];

/**
 * Records one operation on an account in the activity trail (docs/spec/extensions.md §3), and queues
 * it for the webhooks that want it (§4), in the caller's transaction: the event and its deliveries
 * exist exactly when the change committed. writeAccount (account-access/write-account.ts) calls it
 * with the event each account write answers (accepting an invitation: two); nothing else writes events.
 */
export async function recordEvent(
  tx: Tx,
  ctx: PublicContext & { actor?: Actor | null },
  change: AccountChange,
) {
  const actor = eventActorOf(ctx);
  const [row] = await tx
    .insert(accountEvents)
    .values({
      bankAccountId: change.accountId,
      type: change.type,
      occurredAt: ctx.now,
      actorKind: actor.kind,
      actorUsername: actor.username,
      actorApiKey: actor.apiKey,
      requestId: ctx.request.id,
      summary: `${actorName(actor)} ${change.says}`,
      data: change.data,
    })
    .returning();
  if (!row) throw new Error("recordEvent: the insert returned nothing");
  await enqueueWebhookDeliveries(tx, toActivityEventView(row));
  return row.id;
}
