import { BUDGET_TYPE, type BudgetType } from "@allot/contract/budgets/budget-kinds";
import type { Money } from "@allot/contract/money";

/** What the Goal latch reads of a budget. */
export interface GoalProgress {
  budgetType: BudgetType;
  isUnallocated: boolean;
  targetBalance: Money;
  fundedAmount: Money;
  complete: boolean;
}

/**
 * A budget's `complete` flag after its funded amount changed (docs/spec/operations.md §Bank accounts and
 * budgets): a Goal latches complete once funded up to a target above zero, and nothing that follows
 * (spending, moving money out) unlatches it. Unallocated, a Goal with target 0, never completes;
 * other types keep their flag (a Recurring budget's is set at each refresh).
 */
export const latchedComplete = (budget: GoalProgress): boolean =>
  budget.complete ||
  (budget.budgetType === BUDGET_TYPE.goal &&
    !budget.isUnallocated &&
    budget.targetBalance.gt(0) &&
    budget.fundedAmount.gte(budget.targetBalance));
