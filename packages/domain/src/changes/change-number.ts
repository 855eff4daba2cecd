import type { Database, Tx } from "@allot/db/create-database";
import { bankAccountOwners, bankAccounts } from "@allot/db/schema/bank-accounts";
import { changeCounters } from "@allot/db/schema/change-counters";
import { transactions } from "@allot/db/schema/transactions";
import { eq, inArray, type SQL, sql } from "drizzle-orm";

/*
 * The change feed's numbering (docs/decisions/0035). Every write transaction of an account takes
 * the account's next change number right after the account's row lock, the lock every writer of the
 * account already takes first; so numbers commit in the order they were taken, and a reader
 * that has seen number N can never later see a commit numbered N or less. The number lives in the
 * transaction-local setting `allot.change_seq`: rows inserted take it as their column default, and
 * updates stamp it with `changeStamp`. One account per such transaction.
 */

/** The running transaction's change number, for `.set({ changeSeq: changeStamp })` and raw SQL. */
export const changeStamp = sql`current_setting('allot.change_seq')::bigint`;

/**
 * Takes the account's next change number (the caller holds the account's lock): for the rest of
 * the transaction when `asTransactionNumber`, else only answered.
 */
async function nextChangeNumber(tx: Database | Tx, accountId: string, asTransactionNumber: boolean) {
  const c = changeCounters;
  const [row] = await tx
    .insert(c)
    .values({ bankAccountId: accountId, lastChange: 1 })
    .onConflictDoUpdate({ target: c.bankAccountId, set: { lastChange: sql`${c.lastChange} + 1` } })
    .returning({
      number: asTransactionNumber
        ? sql<string>`set_config('allot.change_seq', ${c.lastChange}::text, true)`
        : sql<string>`${c.lastChange}::text`,
    });
  if (!row) throw new Error(`no change number for account ${accountId}`);
  return Number(row.number);
}

/**
 * Locks the account `where` selects (`FOR UPDATE`, until the transaction ends) and takes its next
 * change number for the rest of the transaction. Answers the account, or undefined when none matches.
 */
export async function lockAccountForChange(tx: Database | Tx, where: SQL | undefined) {
  const [account] = await tx
    .select()
    .from(bankAccounts)
    .where(where)
    .limit(1)
    .for("update", { of: bankAccounts });
  if (account) await nextChangeNumber(tx, account.id, true);
  return account;
}

/**
 * For the rare write that changes what GETs of several accounts answer (a category rename, an
 * owner's new time zone): locks the accounts in id order, as every writer would, and runs `stamp`
 * with each account's own next change number, leaving `allot.change_seq` alone.
 */
export async function stampEachAccount(
  tx: Tx,
  accountIds: Iterable<string>,
  stamp: (accountId: string, changeNumber: number) => Promise<unknown>,
) {
  for (const id of [...new Set(accountIds)].sort()) {
    const [account] = await tx
      .select({ id: bankAccounts.id })
      .from(bankAccounts)
      .where(eq(bankAccounts.id, id))
      .for("update");
    if (account) await stamp(id, await nextChangeNumber(tx, id, false));
  }
}

/**
 * SQL that puts in the feed the transactions of the allocations a statement changed (`changed`: a
 * CTE returning their `transaction_id`): a transaction's answer embeds its allocations.
 */
export const stampTransactionsOf = (changed: SQL) =>
  sql`update transactions set change_seq = ${changeStamp}
      where id in (select transaction_id from ${changed}) and change_seq <> ${changeStamp}`;

/** Puts transactions in the feed when only what they embed changed (their allocations). */
export async function stampTransactions(tx: Tx, ids: string[]) {
  if (ids.length === 0) return;
  await tx
    .update(transactions)
    .set({ changeSeq: changeStamp, modifiedAt: sql`${transactions.modifiedAt}` })
    .where(inArray(transactions.id, ids));
}

/** Puts accounts in the feed when what their GET answers changed outside their row (owners, time zone). */
export const stampAccounts = (tx: Tx, accountIds: Iterable<string>) =>
  stampEachAccount(tx, accountIds, (id, changeNumber) =>
    tx
      .update(bankAccounts)
      .set({ changeSeq: changeNumber, modifiedAt: sql`${bankAccounts.modifiedAt}` })
      .where(eq(bankAccounts.id, id)),
  );

/** Every account the user owns, when what their GET says of the user changed (username, time zone). */
export async function stampAccountsOf(tx: Tx, userId: number) {
  const owned = await tx
    .select({ id: bankAccountOwners.bankAccountId })
    .from(bankAccountOwners)
    .where(eq(bankAccountOwners.userId, userId));
  await stampAccounts(
    tx,
    owned.map((row) => row.id),
  );
}
