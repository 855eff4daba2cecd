import { formatMoney } from "@allot/contract/money";
import type { Database, Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { eq, getTableColumns } from "drizzle-orm";

export type InternalTransactionRow = typeof internalTransactions.$inferSelect;

/** The wire InternalTransaction: money as two-decimal strings in the account's currency. */
export const toInternalTransactionView = (row: InternalTransactionRow, currency: string) => ({
  id: row.id,
  bank_account: row.bankAccountId,
  amount: formatMoney(row.amount),
  amount_currency: currency,
  src_budget: row.srcBudgetId,
  dst_budget: row.dstBudgetId,
  actor: row.actorId,
  effective_date: row.effectiveDate.toISOString(),
  src_budget_balance: formatMoney(row.srcBudgetBalance),
  src_budget_balance_currency: currency,
  dst_budget_balance: formatMoney(row.dstBudgetBalance),
  dst_budget_balance_currency: currency,
  created_at: row.createdAt.toISOString(),
  modified_at: row.modifiedAt.toISOString(),
});

export type InternalTransactionView = ReturnType<typeof toInternalTransactionView>;

/** Transfers joined to their account (for its currency); add `.where(...)`. */
export const selectInternalTransactions = (db: Database | Tx) =>
  db
    .select({ row: getTableColumns(internalTransactions), currency: bankAccounts.currency })
    .from(internalTransactions)
    .innerJoin(bankAccounts, eq(bankAccounts.id, internalTransactions.bankAccountId));
