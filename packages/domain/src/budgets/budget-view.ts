import { BUDGET_TYPE } from "@allot/contract/budgets/budget-kinds";
import { formatMoney } from "@allot/contract/money";
import type { Database, Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";
import { and, eq, inArray } from "drizzle-orm";
import { firstOwnerTimeZone } from "../calendar/account-time-zone";
import { localDate } from "../calendar/local-days";
import { toFundingBudget } from "../funding/funding-budget";
import { type FundingOutlook, fundingOutlook } from "../funding/funding-outlook";
import { toOpenOccurrence } from "../funding/funding-plan";
import type { BudgetRow } from "../ledger/balances";

/** The wire Budget: money as two-decimal strings with `_currency` siblings in the account's currency. */
const toBudgetView = (row: BudgetRow, currency: string, outlook: FundingOutlook) => ({
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
  budget_type: row.budgetType,
  funding_type: row.fundingType,
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
  next_funding: outlook.nextFunding
    ? {
        date: outlook.nextFunding.date,
        amount: formatMoney(outlook.nextFunding.amount),
        amount_currency: currency,
      }
    : null,
  next_recurrence: outlook.nextRecurrence,
  funding_pace: outlook.fundingPace,
  created_at: row.createdAt.toISOString(),
  modified_at: row.modifiedAt.toISOString(),
});

export type BudgetView = ReturnType<typeof toBudgetView>;

/**
 * Views of budgets of possibly several accounts, with the funding engine's outlook: the accounts'
 * currencies and local dates, the Recurring parents of fill-up goals and the open partial
 * occurrences, each in one query.
 */
export async function loadBudgetViews(db: Database | Tx, rows: BudgetRow[]): Promise<BudgetView[]> {
  if (rows.length === 0) return [];
  const accountIds = [...new Set(rows.map((row) => row.bankAccountId))];
  const budgetIds = rows.map((row) => row.id);
  const fillupIds = rows.filter((row) => row.budgetType === BUDGET_TYPE.fillup).map((row) => row.id);
  const [accounts, parents, open] = await Promise.all([
    db
      .select({ id: bankAccounts.id, currency: bankAccounts.currency, timeZone: firstOwnerTimeZone })
      .from(bankAccounts)
      .where(inArray(bankAccounts.id, accountIds)),
    fillupIds.length > 0 ? db.select().from(budgets).where(inArray(budgets.fillupGoalId, fillupIds)) : [],
    db
      .selectDistinctOn([fundingOccurrences.budgetId])
      .from(fundingOccurrences)
      .where(and(inArray(fundingOccurrences.budgetId, budgetIds), eq(fundingOccurrences.status, "PARTIAL")))
      .orderBy(fundingOccurrences.budgetId, fundingOccurrences.scheduledDate),
  ]);
  const now = new Date();
  const calendars = new Map(
    accounts.map((account) => [
      account.id,
      { currency: account.currency, today: localDate(now, account.timeZone ?? "UTC") },
    ]),
  );
  const parentOf = new Map(parents.map((parent) => [parent.fillupGoalId, toFundingBudget(parent)]));
  const openOf = new Map(open.map((row) => [row.budgetId, toOpenOccurrence(row)]));
  return rows.map((row) => {
    const calendar = calendars.get(row.bankAccountId) ?? { currency: "", today: localDate(now, "UTC") };
    const outlook = fundingOutlook(toFundingBudget(row), calendar.today, {
      parent: parentOf.get(row.id),
      open: openOf.get(row.id),
    });
    return toBudgetView(row, calendar.currency, outlook);
  });
}

/** One budget's view (create, update and archive answer with it). */
export const loadBudgetView = async (db: Database | Tx, row: BudgetRow): Promise<BudgetView> =>
  (await loadBudgetViews(db, [row]))[0] as BudgetView;
