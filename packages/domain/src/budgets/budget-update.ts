import { BUDGET_TYPE } from "@allot/contract/budgets/budget-kinds";
import { type Money, toMoney } from "@allot/contract/money";
import type { BudgetRow } from "../ledger/balances";
import { latchedComplete } from "../ledger/goal-complete";
import { addError, type FieldErrors } from "../shared/validation";
import type { BudgetColumns, PreparedChanges } from "./budget-changes";
import { type BudgetFields, fillupName } from "./budget-fields";
import { budgetRuleErrors } from "./budget-rules";

const IMMUTABLE = "This field cannot be changed once the budget exists.";
const MIRRORED = "A fill-up goal follows its Recurring budget: change that budget instead.";
// What a fill-up goal takes from its Recurring budget.
const MIRRORED_FIELDS: Field[] = ["name", "target_balance", "funding_schedule", "paused"];
const FILLUP_AUTO_SPEND = "A fill-up goal takes no auto_spend: list the categories on its Recurring budget.";

// Request field → column, for the comparisons below.
const FIELD_COLUMNS = {
  name: "name",
  funding_type: "fundingType",
  target_balance: "targetBalance",
  funding_amount: "fundingAmount",
  target_date: "targetDate",
  paused: "paused",
  funding_schedule: "fundingSchedule",
  recurrence_schedule: "recurrenceSchedule",
  memo: "memo",
  auto_spend: "autoSpend",
} as const satisfies Record<string, keyof BudgetColumns>;

export type Field = keyof typeof FIELD_COLUMNS;

// Amounts compare as amounts ("5" is "5.00"); every other column, text included, as it is.
const MONEY_COLUMNS: ReadonlySet<keyof BudgetColumns> = new Set(["targetBalance", "fundingAmount"]);

function sameValue(column: keyof BudgetColumns, a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined)
    return (a === null || a === undefined) && (b === null || b === undefined);
  if (MONEY_COLUMNS.has(column)) return toMoney(a as Money).eq(toMoney(b as Money));
  if (Array.isArray(a) && Array.isArray(b)) return a.join("\u0000") === b.join("\u0000");
  return a === b;
}

/** The request fields whose prepared value differs from the stored one. */
function changedFields(row: BudgetRow, columns: BudgetColumns): Field[] {
  return (Object.keys(FIELD_COLUMNS) as Field[]).filter((field) => {
    const column = FIELD_COLUMNS[field];
    return column in columns && !sameValue(column, columns[column], row[column]);
  });
}

/** What a PUT or PATCH does to one budget, before anything is written. */
export interface BudgetUpdate {
  /** The fields the request carried. */
  sent: Field[];
  /** Those whose value differs from the stored one. */
  changed: Field[];
  /** The columns to set on the budget (empty when nothing changed). */
  updates: BudgetColumns;
  /** The columns its fill-up goal takes from it, if it has one. */
  mirror: BudgetColumns;
}

/**
 * The update of `budget` by `input` (its fields read by prepareBudgetChanges into `prepared`),
 * checked: bank_account and budget_type may only repeat the stored value; the Unallocated budget
 * keeps its name and settings (only memo and paused change); a fill-up goal's mirrored fields and
 * auto_spend are its Recurring budget's; the per-type rules hold for the budget as it will be
 * stored. Problems go into `errors`. A Goal whose target drops to what it is already funded
 * latches complete, as funding would. Pure: updateBudget writes it, a forecast applies it in memory.
 */
export function planBudgetUpdate(
  budget: BudgetRow,
  input: BudgetFields,
  prepared: PreparedChanges,
  errors: FieldErrors,
): BudgetUpdate {
  if (input.bank_account !== undefined && input.bank_account.toLowerCase() !== budget.bankAccountId)
    addError(errors, "bank_account", IMMUTABLE);
  if (input.budget_type !== undefined && input.budget_type !== budget.budgetType)
    addError(errors, "budget_type", IMMUTABLE);
  const { columns } = prepared;
  const changed = changedFields(budget, columns);
  if (budget.isUnallocated) {
    for (const field of changed) {
      if (field === "memo" || field === "paused") continue;
      addError(
        errors,
        field,
        field === "name"
          ? "The Unallocated budget cannot be renamed."
          : "The Unallocated budget's settings are fixed; only memo and paused change.",
      );
    }
  } else {
    if (budget.budgetType === BUDGET_TYPE.fillup) {
      for (const field of changed) if (MIRRORED_FIELDS.includes(field)) addError(errors, field, MIRRORED);
      // Spending is routed to the Recurring budget, never to its fill-up (clearing a list is fine).
      if (changed.includes("auto_spend") && (columns.autoSpend ?? []).length > 0)
        addError(errors, "auto_spend", FILLUP_AUTO_SPEND);
    }
    budgetRuleErrors(
      {
        budgetType: budget.budgetType,
        fundingType: columns.fundingType ?? budget.fundingType,
        targetBalance: prepared.targetBalance ?? toMoney(budget.targetBalance),
        fundingAmount:
          prepared.fundingAmount !== undefined
            ? prepared.fundingAmount
            : budget.fundingAmount === null
              ? null
              : toMoney(budget.fundingAmount),
        targetDate: columns.targetDate !== undefined ? columns.targetDate : budget.targetDate,
        recurrenceSchedule:
          columns.recurrenceSchedule !== undefined ? columns.recurrenceSchedule : budget.recurrenceSchedule,
      },
      errors,
    );
  }
  const sent = (Object.keys(FIELD_COLUMNS) as Field[]).filter((field) => input[field] !== undefined);
  const updates: BudgetColumns = {};
  for (const field of changed)
    Object.assign(updates, { [FIELD_COLUMNS[field]]: columns[FIELD_COLUMNS[field]] });
  if (
    changed.length > 0 &&
    !budget.complete &&
    latchedComplete({
      budgetType: budget.budgetType,
      isUnallocated: budget.isUnallocated,
      targetBalance: toMoney(updates.targetBalance ?? budget.targetBalance),
      fundedAmount: toMoney(budget.fundedAmount),
      complete: false,
    })
  )
    updates.complete = true;
  const mirror: BudgetColumns = {};
  if (updates.name !== undefined) mirror.name = fillupName(updates.name);
  if (updates.targetBalance !== undefined) mirror.targetBalance = updates.targetBalance;
  if (updates.fundingSchedule !== undefined) mirror.fundingSchedule = updates.fundingSchedule;
  if (updates.paused !== undefined) mirror.paused = updates.paused;
  return { sent, changed, updates, mirror };
}
