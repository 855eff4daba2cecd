import type { Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { and, eq } from "drizzle-orm";
import { type NoticeDetail, noticeAccountEvent } from "../events/account-notices";
import { type AccountChange, recordEvent } from "../events/record-event";
import { lockAccountForChange } from "../ledger/change-number";
import type { Actor } from "../shared/actor";
import type { PublicContext } from "../shared/use-case-context";
import { accountNotFound, type BankAccountRow, ownedBy, unknownAccount } from "./find-owned-account";

/** The account a write changes, and who must own it. */
interface AccountTarget {
  accountId: string;
  /** The owner the account must have: the caller; null for work no owner asks for (the scheduler, an invitee's answer). */
  owner: Pick<Actor, "userId"> | null;
  /** The refusal when no such account is the owner's: 404 on the account unless told (a request field's 400, a budget's 404). */
  missing?: () => Error;
}

/** The account a write changes when a request field names it (writeAccount): a miss is a 400 on that field. */
export const accountNamedIn = (field: string, id: string, owner: Pick<Actor, "userId">): AccountTarget => ({
  accountId: id,
  owner,
  missing: () => unknownAccount(field, id),
});

/** What a write's body answers: the one event of what it did, and the use case's result. */
export interface AccountAct<R> {
  /**
   * What the write did, in the trail's words: recorded once, and the source of its webhook
   * deliveries and notifications. Null only when nothing is left to record it under (the account
   * itself deleted).
   */
  event: AccountChange | null;
  /** A second event of the same write, recorded after the first: accepting an invitation also adds an owner. */
  alsoRecorded?: AccountChange;
  /**
   * Described, but kept out of the trail and so of webhooks: a funding run that moved no money
   * (decision 0031). Its notifications are still derived from it.
   */
  unrecorded?: boolean;
  /** What its notifications show beyond the event (rows and names it keeps as ids, or not at all). */
  detail?: NoticeDetail;
  result: R;
}

/**
 * One write of one account, as one act (docs/decisions/0065): in the caller's transaction if there
 * is one (an Idempotency-Key's, an invitation's: then a savepoint of it), else its own, it locks the
 * account row (first, before any budget or transaction row: the order every writer keeps), takes the
 * account's next change number (rows inserted and updated by the body are stamped with it), runs
 * the body, then records the body's event with its webhook deliveries and derives the owners'
 * notifications from it. A body that throws rolls all of it back. The body never records events,
 * notifications or change stamps itself.
 */
export async function writeAccount<R>(
  ctx: PublicContext & { actor?: Actor | null },
  target: AccountTarget,
  body: (tx: Tx, account: BankAccountRow) => Promise<AccountAct<R>>,
): Promise<R> {
  return ctx.db.transaction(async (tx) => {
    const { accountId, owner } = target;
    const account = await lockAccountForChange(
      tx,
      owner ? and(eq(bankAccounts.id, accountId), ownedBy(tx, owner.userId)) : eq(bankAccounts.id, accountId),
    );
    if (!account) throw (target.missing ?? accountNotFound)();
    const act = await body(tx, account);
    for (const event of [act.event, act.alsoRecorded]) {
      if (!event) continue;
      if (event.accountId !== account.id)
        throw new Error(`a write of account ${account.id} described an event of ${event.accountId}`);
      if (!act.unrecorded) await recordEvent(tx, ctx, event);
      await noticeAccountEvent(tx, account, event, act.detail);
    }
    return act.result;
  });
}
