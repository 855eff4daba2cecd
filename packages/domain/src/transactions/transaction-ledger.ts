import type { Tx } from "@allot/db/create-database";
import { budgets } from "@allot/db/schema/budgets";
import { and, eq } from "drizzle-orm";
import type { LedgerKey } from "../ledger/ledger-key";
import { refreshBudgetSnapshots, refreshTransactionSnapshots } from "../ledger/snapshots";
import { NotFound } from "../shared/errors";
import type { TransactionRow } from "./transaction-view";

/** Where a transaction sits in its account's history. */
export const ledgerKeyOf = (row: Pick<TransactionRow, "transactionDate" | "createdAt">): LedgerKey => ({
  at: row.transactionDate,
  createdAt: row.createdAt,
});

/** The account's Unallocated budget id, not locked: lock it with the others through lockBudgets. */
export async function unallocatedBudgetId(tx: Tx, accountId: string): Promise<string> {
  const [row] = await tx
    .select({ id: budgets.id })
    .from(budgets)
    .where(and(eq(budgets.bankAccountId, accountId), eq(budgets.isUnallocated, true)));
  if (!row) throw new NotFound("The account has no Unallocated budget.");
  return row.id;
}

/** Running balances from `key` on: the account's transactions, and these budgets' events. */
export async function refreshSnapshotsFrom(
  tx: Tx,
  accountId: string,
  key: LedgerKey,
  options: { transactions: boolean; budgetIds: string[] },
) {
  if (options.transactions) await refreshTransactionSnapshots(tx, accountId, key);
  await refreshBudgetSnapshots(tx, accountId, options.budgetIds, key);
}
