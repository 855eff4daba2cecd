import { BUDGET_TYPE, FUNDING_TYPE } from "@allot/contract/budgets/budget-kinds";
import type { budgetRoutes } from "@allot/contract/budgets/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { ZERO } from "@allot/contract/money";
import type { budgets } from "@allot/db/schema/budgets";
import { addError, type FieldErrors } from "../shared/validation";
import type { PreparedChanges } from "./budget-changes";
import { fillupName } from "./budget-fields";
import { budgetRuleErrors } from "./budget-rules";

/** What a new budget is made of: the create fields but its account. */
export type NewBudgetInput = Omit<RouteInput<typeof budgetRoutes.create>, "bank_account">;

type BudgetInsert = typeof budgets.$inferInsert;

/** A new budget's rows: the budget's and, for a Recurring one, its fill-up goal's (made first). */
export interface NewBudgetRows {
  fillup: BudgetInsert | null;
  /** Its fillup_goal_id is left to the caller: the fill-up's id once it exists. */
  budget: BudgetInsert;
}

/**
 * The checks a new budget passes beyond its fields' own (prepareBudgetChanges): fill-up goals are
 * only made with their Recurring budget, and the per-type rules hold. Problems go into `errors`.
 */
export function newBudgetErrors(input: NewBudgetInput, prepared: PreparedChanges, errors: FieldErrors) {
  if (input.budget_type === BUDGET_TYPE.fillup)
    addError(
      errors,
      "budget_type",
      "Fill-up goals are created with their Recurring budget, not on their own.",
    );
  budgetRuleErrors(
    {
      budgetType: input.budget_type,
      fundingType: input.funding_type,
      targetBalance: prepared.targetBalance ?? ZERO,
      fundingAmount: prepared.fundingAmount ?? null,
      targetDate: input.target_date ?? null,
      recurrenceSchedule: prepared.columns.recurrenceSchedule ?? null,
    },
    errors,
  );
}

/**
 * The rows of a checked new budget in `accountId`, its schedules firing from `schedulesFrom` (the
 * account's today: events dated before the budget existed are not due). A Recurring budget's
 * fill-up goal is type A, "<name> Fill-up", with the same target, funding schedule and pause.
 */
export function newBudgetRows(
  accountId: string,
  input: NewBudgetInput,
  { columns }: PreparedChanges,
  schedulesFrom: string,
): NewBudgetRows {
  const fillup: BudgetInsert | null =
    input.budget_type === BUDGET_TYPE.recurring
      ? {
          bankAccountId: accountId,
          name: fillupName(input.name),
          budgetType: BUDGET_TYPE.fillup,
          fundingType: FUNDING_TYPE.targetDate,
          targetBalance: columns.targetBalance ?? "0",
          fundingSchedule: columns.fundingSchedule ?? "",
          paused: columns.paused ?? false,
          schedulesFrom,
        }
      : null;
  const budget: BudgetInsert = {
    ...columns,
    bankAccountId: accountId,
    name: input.name,
    budgetType: input.budget_type,
    fundingType: input.funding_type,
    schedulesFrom,
  };
  return { fillup, budget };
}
