import type { Tx } from "@allot/db/create-database";
import type { LedgerKey } from "../ledger/ledger-key";
import { refreshBudgetSnapshots, refreshTransactionSnapshots } from "../ledger/snapshots";
import type { TransactionRow } from "./transaction-view";

/** Where a transaction sits in its account's history. */
export const ledgerKeyOf = (row: Pick<TransactionRow, "transactionDate" | "createdAt">): LedgerKey => ({
  at: row.transactionDate,
  createdAt: row.createdAt,
});

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
