import type { TransactionAllocationView } from "@allot/contract/allocations/allocation";
import { formatMoney } from "@allot/contract/money";
import type { Database, Tx } from "@allot/db/create-database";
import { perDatabase } from "@allot/db/per-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { asc, eq, getTableColumns, sql } from "drizzle-orm";
import { formatFullName } from "../categories/visible-categories";

export type AllocationRow = typeof transactionAllocations.$inferSelect;

/** An allocation with what its view needs from the category and the account. */
export const allocationViewColumns = {
  ...getTableColumns(transactionAllocations),
  categoryGroup: transactionCategories.group,
  categoryName: transactionCategories.name,
  currency: bankAccounts.currency,
};

/** Allocations joined with their category and account, ready for `.where(...)`. */
export const selectAllocationViews = (db: Database | Tx) =>
  db
    .select(allocationViewColumns)
    .from(transactionAllocations)
    .innerJoin(bankAccounts, eq(bankAccounts.id, transactionAllocations.bankAccountId))
    .leftJoin(transactionCategories, eq(transactionCategories.id, transactionAllocations.categoryId))
    .$dynamic();

type AllocationViewRow = AllocationRow & {
  categoryGroup: string | null;
  categoryName: string | null;
  currency: string;
};

/** The wire TransactionAllocation; budget_balance is the stored running-balance snapshot. */
export const toAllocationView = (row: AllocationViewRow): TransactionAllocationView => ({
  id: row.id,
  transaction: row.transactionId,
  budget: row.budgetId,
  amount: formatMoney(row.amount),
  amount_currency: row.currency,
  budget_balance: formatMoney(row.budgetBalance),
  budget_balance_currency: row.currency,
  category: row.categoryId,
  category_full_name:
    row.categoryGroup !== null && row.categoryName !== null
      ? formatFullName(row.categoryGroup, row.categoryName)
      : null,
  memo: row.memo,
  created_at: row.createdAt.toISOString(),
  modified_at: row.modifiedAt.toISOString(),
});

// Every transaction read runs it: one statement text for any number of ids, built once per handle.
const allocationsOfTransactions = perDatabase((db, _key: "allocations_of") =>
  selectAllocationViews(db)
    .where(sql`${transactionAllocations.transactionId} = any(${sql.placeholder("ids")}::uuid[])`)
    .orderBy(asc(transactionAllocations.createdAt), asc(transactionAllocations.id))
    .prepare("allocations_of_transactions"),
);

/** Every allocation of these transactions, oldest first, in one query, grouped by transaction. */
export async function loadAllocationsOf(
  db: Database | Tx,
  transactionIds: string[],
): Promise<Map<string, TransactionAllocationView[]>> {
  const grouped = new Map<string, TransactionAllocationView[]>();
  if (transactionIds.length === 0) return grouped;
  const rows = await allocationsOfTransactions(db, "allocations_of").execute({ ids: transactionIds });
  for (const row of rows) {
    const list = grouped.get(row.transactionId) ?? [];
    list.push(toAllocationView(row));
    grouped.set(row.transactionId, list);
  }
  return grouped;
}
