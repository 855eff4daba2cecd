import {
  BUDGET_TYPE,
  type BudgetType,
  FUNDING_TYPE,
  type FundingType,
} from "@allot/contract/budgets/budget-kinds";
import type { Money } from "@allot/contract/money";
import { unreachable } from "../shared/unreachable";
import { addError, type FieldErrors } from "../shared/validation";

/** The fields the per-type rules look at, as they will be stored. */
export interface BudgetShape {
  budgetType: BudgetType;
  fundingType: FundingType;
  targetBalance: Money;
  fundingAmount: Money | null;
  targetDate: string | null;
  recurrenceSchedule: string | null;
}

/**
 * The per-type rules (docs/spec/operations.md): Recurring is funding type D, has no target_date and needs a
 * recurrence_schedule; Capped is F and needs a funding_amount; a Goal of type F needs a
 * funding_amount, of type D a target_date. Only Recurring budgets have a recurrence schedule, and
 * amounts are never negative. Each violation is reported on its field. Fill-up goals are the
 * service's own and are not checked here.
 */
export function budgetRuleErrors(shape: BudgetShape, errors: FieldErrors = {}): FieldErrors {
  if (shape.targetBalance.lt(0)) addError(errors, "target_balance", "Must not be negative.");
  if (shape.fundingAmount?.lt(0)) addError(errors, "funding_amount", "Must not be negative.");
  switch (shape.budgetType) {
    case BUDGET_TYPE.recurring:
      if (shape.fundingType !== FUNDING_TYPE.targetDate)
        addError(errors, "funding_type", "A Recurring budget must have funding type D (target date).");
      if (shape.targetDate !== null)
        addError(errors, "target_date", "A Recurring budget has no target date.");
      if (!shape.recurrenceSchedule)
        addError(errors, "recurrence_schedule", "A Recurring budget needs a recurrence schedule.");
      break;
    case BUDGET_TYPE.capped:
      if (shape.fundingType !== FUNDING_TYPE.fixedAmount)
        addError(errors, "funding_type", "A Capped budget must have funding type F (fixed amount).");
      if (shape.fundingAmount === null)
        addError(errors, "funding_amount", "A Capped budget needs a funding amount.");
      break;
    case BUDGET_TYPE.goal:
      if (shape.fundingType === FUNDING_TYPE.fixedAmount && shape.fundingAmount === null)
        addError(errors, "funding_amount", "A Goal funded by a fixed amount needs a funding amount.");
      if (shape.fundingType === FUNDING_TYPE.targetDate && shape.targetDate === null)
        addError(errors, "target_date", "A Goal funded toward a target date needs a target date.");
      break;
    case BUDGET_TYPE.fillup:
      break;
    default:
      unreachable(shape.budgetType);
  }
  if (shape.budgetType !== BUDGET_TYPE.recurring && shape.recurrenceSchedule)
    addError(errors, "recurrence_schedule", "Only a Recurring budget has a recurrence schedule.");
  return errors;
}
