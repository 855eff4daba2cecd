import type { BUDGET_TYPES, FUNDING_TYPES } from "@allot/contract/budgets/budget";
import type { Database, Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { inArray } from "drizzle-orm";
import type { BudgetRow } from "../ledger/balances";
import { formatMoney } from "../shared/money";

type BudgetType = (typeof BUDGET_TYPES)[number];
type FundingType = (typeof FUNDING_TYPES)[number];

/**
 * The wire Budget: money as two-decimal strings with `_currency` siblings in the account's
 * currency. next_funding, next_recurrence and funding_pace are computed by the funding engine,
 * which does not exist yet: null until it does.
 */
export const toBudgetView = (row: BudgetRow, currency: string) => ({
  id: row.id,
  name: row.name,
  bank_account: row.bankAccountId,
  balance: formatMoney(row.balance),
  balance_currency: currency,
  funded_amount: formatMoney(row.fundedAmount),
  funded_amount_currency: currency,
  target_balance: formatMoney(row.targetBalance),
  target_balance_currency: currency,
  funding_amount: row.fundingAmount === null ? null : formatMoney(row.fundingAmount),
  funding_amount_currency: row.fundingAmount === null ? null : currency,
  budget_type: row.budgetType as BudgetType,
  funding_type: row.fundingType as FundingType,
  target_date: row.targetDate,
  fillup_goal: row.fillupGoalId,
  archived: row.archived,
  archived_at: row.archivedAt ? row.archivedAt.toISOString() : null,
  complete: row.complete,
  paused: row.paused,
  funding_schedule: row.fundingSchedule,
  recurrence_schedule: row.recurrenceSchedule,
  memo: row.memo,
  auto_spend: row.autoSpend,
  next_funding: null as { date: string; amount: string; amount_currency: string } | null,
  next_recurrence: null as string | null,
  funding_pace: null as "ahead" | "on_track" | "behind" | null,
  created_at: row.createdAt.toISOString(),
  modified_at: row.modifiedAt.toISOString(),
});

export type BudgetView = ReturnType<typeof toBudgetView>;

/** Views of budgets of possibly several accounts: the currencies in one query. */
export async function loadBudgetViews(db: Database | Tx, rows: BudgetRow[]): Promise<BudgetView[]> {
  if (rows.length === 0) return [];
  const accountIds = [...new Set(rows.map((row) => row.bankAccountId))];
  const accounts = await db
    .select({ id: bankAccounts.id, currency: bankAccounts.currency })
    .from(bankAccounts)
    .where(inArray(bankAccounts.id, accountIds));
  const currencies = new Map(accounts.map((account) => [account.id, account.currency]));
  return rows.map((row) => toBudgetView(row, currencies.get(row.bankAccountId) ?? ""));
}
