import type { Database, Tx } from "@allot/db/create-database";
import { bankAccountOwners, bankAccounts } from "@allot/db/schema/bank-accounts";
import { transactions } from "@allot/db/schema/transactions";
import { eq, getTableColumns, inArray, type SQL, sql } from "drizzle-orm";

/*
 * The change feed's numbering (docs/decisions/0035). Every write transaction of an account takes
 * the account's next change number while it takes the account's row lock, the lock every writer of
 * the account already takes first; so numbers commit in the order they were taken, and a reader
 * that has seen number N can never later see a commit numbered N or less. The number lives in the
 * transaction-local setting `allot.change_seq`: rows inserted take it as their column default, and
 * updates stamp it with `changeStamp`. One account per such transaction.
 */

/** The running transaction's change number, for `.set({ changeSeq: changeStamp })` and raw SQL. */
export const changeStamp = sql`current_setting('allot.change_seq')::bigint`;

const bump = {
  changeCounter: sql`${bankAccounts.changeCounter} + 1`,
  // Taking a number is not a change of the account: modified_at stays.
  modifiedAt: sql`${bankAccounts.modifiedAt}`,
};

/**
 * Locks the account `where` selects (its row, until the transaction ends) and takes its next change
 * number for the rest of the transaction. Answers the account, or undefined when none matches.
 */
export async function lockAccountForChange(tx: Database | Tx, where: SQL | undefined) {
  const [row] = await tx
    .update(bankAccounts)
    .set(bump)
    .where(where)
    .returning({
      ...getTableColumns(bankAccounts),
      changeNumber: sql<string>`set_config('allot.change_seq', ${bankAccounts.changeCounter}::text, true)`,
    });
  if (!row) return undefined;
  const { changeNumber: _, ...account } = row;
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
    const [row] = await tx
      .update(bankAccounts)
      .set(bump)
      .where(eq(bankAccounts.id, id))
      .returning({ changeCounter: bankAccounts.changeCounter });
    if (row) await stamp(id, row.changeCounter);
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
