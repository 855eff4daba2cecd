import { formatMoney, type Money, toMoney } from "@allot/contract/money";
import type { Tx } from "@allot/db/create-database";
import type { budgets } from "@allot/db/schema/budgets";
import { currencyKeyErrors } from "../account-access/account-currency";
import type { BankAccountRow } from "../account-access/find-owned-account";
import { accountToday } from "../calendar/account-time-zone";
import { addError, type FieldErrors } from "../shared/validation";
import { canonicalAutoSpend } from "./auto-spend";
import { BUDGET_CURRENCY_KEYS, type BudgetFields } from "./budget-fields";
import { checkFundingSchedule, checkRecurrenceSchedule } from "./recurrence-grammar";

export type BudgetColumns = Partial<typeof budgets.$inferInsert>;

/** The given writable fields as column values, checked; problems go into `errors` per field. */
export interface PreparedChanges {
  columns: BudgetColumns;
  targetBalance?: Money;
  fundingAmount?: Money | null;
}

/**
 * Reads the fields a create or update carries (absent ones stay absent): money parsed exactly and
 * in the account's currency, schedules checked (a funding schedule anchored to the first owner's
 * today when it has no DTSTART; empty means no schedule), auto_spend canonicalised (entries the
 * budget already lists may name archived categories), an empty memo stored as null. Rules that
 * depend on the budget type are checked by the caller on the result.
 */
export async function prepareBudgetChanges(
  tx: Tx,
  userId: number,
  account: BankAccountRow,
  input: BudgetFields,
  errors: FieldErrors,
  storedAutoSpend: string[] = [],
): Promise<PreparedChanges> {
  Object.assign(errors, currencyKeyErrors(input, BUDGET_CURRENCY_KEYS, account.currency));
  const columns: BudgetColumns = {};
  const prepared: PreparedChanges = { columns };
  if (input.name !== undefined) columns.name = input.name;
  if (input.funding_type !== undefined) columns.fundingType = input.funding_type;
  // Money arrives in the contract's decimal form (moneyInput): read exactly, never refused here.
  if (input.target_balance !== undefined) {
    prepared.targetBalance = toMoney(input.target_balance);
    columns.targetBalance = formatMoney(prepared.targetBalance);
  }
  if (input.funding_amount !== undefined) {
    prepared.fundingAmount = input.funding_amount === null ? null : toMoney(input.funding_amount);
    columns.fundingAmount = prepared.fundingAmount === null ? null : formatMoney(prepared.fundingAmount);
  }
  if (input.target_date !== undefined) columns.targetDate = input.target_date;
  if (input.paused !== undefined) columns.paused = input.paused;
  if (input.memo !== undefined) columns.memo = input.memo || null;
  if (input.funding_schedule !== undefined) {
    if (input.funding_schedule === "") columns.fundingSchedule = "";
    else {
      const checked = checkFundingSchedule(input.funding_schedule, await accountToday(tx, account.id));
      if (checked.ok) columns.fundingSchedule = checked.value;
      else addError(errors, "funding_schedule", checked.message);
    }
  }
  if (input.recurrence_schedule !== undefined) {
    if (input.recurrence_schedule === null) columns.recurrenceSchedule = null;
    else {
      const checked = checkRecurrenceSchedule(input.recurrence_schedule, await accountToday(tx, account.id));
      if (checked.ok) columns.recurrenceSchedule = checked.value;
      else addError(errors, "recurrence_schedule", checked.message);
    }
  }
  if (input.auto_spend !== undefined)
    columns.autoSpend = await canonicalAutoSpend(tx, userId, input.auto_spend, storedAutoSpend, errors);
  return prepared;
}
