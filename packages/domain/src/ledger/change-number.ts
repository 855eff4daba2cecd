import type { Database, Tx } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { bankAccountOwners, bankAccounts } from "@allot/db/schema/bank-accounts";
import { changeCounters } from "@allot/db/schema/change-counters";
import { transactions } from "@allot/db/schema/transactions";
import { eq, inArray, type SQL, sql } from "drizzle-orm";

/*
 * The change feed's numbering (docs/decisions/0035, 0065). Every write of an account (writeAccount)
 * takes the account's next change number right after the account's row lock, the lock every writer
 * of the account takes first; so numbers commit in the order they were taken, and a reader that has
 * seen number N can never later see a commit numbered N or less. The number lives in the
 * transaction-local setting `allot.change_seq`: rows inserted take it as their column default,
 * drizzle updates by their column's update hook (@allot/db/schema/columns), and raw SQL updates
 * through `stampedSet`. One account per such transaction.
 */

/** The running transaction's change number; it fails outside a numbered write. */
const changeStamp = sql`current_setting('allot.change_seq')::bigint`;

/**
 * The SET list of a raw SQL update of a fed table (one with `change_seq`): the assignments given
 * and the running write's change number, which drizzle updates get from the column's hook.
 */
export const stampedSet = (...assignments: SQL[]) =>
  sql.join([...assignments, sql`change_seq = ${changeStamp}`], sql`, `);

/** Condition on a fed table's rows, by their `change_seq` column: stamped by the running write. */
export const changedByThisWrite = (changeSeqColumn: SQL) => sql`${changeSeqColumn} = ${changeStamp}`;

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
 * Use cases do not call it: writeAccount does (and test kits that write rows by hand).
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
 * for each under that account's own next change number, so its updates stamp themselves as in any
 * write; the running write's own number (if any) is back in force afterwards.
 */
export async function stampEachAccount(
  tx: Tx,
  accountIds: Iterable<string>,
  stamp: (accountId: string) => Promise<unknown>,
) {
  const ids = [...new Set(accountIds)].sort();
  if (ids.length === 0) return;
  const [saved] = rowsOf<{ number: string | null }>(
    await tx.execute(sql`select current_setting('allot.change_seq', true) as number`),
  );
  for (const id of ids) {
    const [account] = await tx
      .select({ id: bankAccounts.id })
      .from(bankAccounts)
      .where(eq(bankAccounts.id, id))
      .for("update");
    if (!account) continue;
    await nextChangeNumber(tx, id, true);
    await stamp(id);
  }
  await tx.execute(sql`select set_config('allot.change_seq', ${saved?.number ?? ""}, true)`);
}

/**
 * SQL that puts in the feed the transactions of the allocations a statement changed (`changed`: a
 * CTE returning their `transaction_id`): a transaction's answer embeds its allocations.
 */
export const stampTransactionsOf = (changed: SQL) =>
  sql`update transactions set ${stampedSet()}
      where id in (select transaction_id from ${changed}) and change_seq <> ${changeStamp}`;

/** Puts transactions in the feed when only what they embed changed (their allocations). */
export async function stampTransactions(tx: Tx, ids: string[]) {
  if (ids.length === 0) return;
  // The column's update hook stamps them; modified_at stays, as their own fields did not change.
  await tx
    .update(transactions)
    .set({ modifiedAt: sql`${transactions.modifiedAt}` })
    .where(inArray(transactions.id, ids));
}

/** Puts the account in the feed under the running number when what its GET answers changed outside its row. */
export async function stampAccount(tx: Tx, accountId: string) {
  await tx
    .update(bankAccounts)
    .set({ modifiedAt: sql`${bankAccounts.modifiedAt}` })
    .where(eq(bankAccounts.id, accountId));
}

/** Every account the user owns, when what their GET says of the user changed (username, time zone). */
export async function stampAccountsOf(tx: Tx, userId: number) {
  const owned = await tx
    .select({ id: bankAccountOwners.bankAccountId })
    .from(bankAccountOwners)
    .where(eq(bankAccountOwners.userId, userId));
  await stampEachAccount(
    tx,
    owned.map((row) => row.id),
    (id) => stampAccount(tx, id),
  );
}
