import { toMoney } from "@allot/contract/money";
import type { FundingBudget } from "../../src/funding/funding-budget";
import type { OpenOccurrence } from "../../src/funding/funding-plan";

// Test builders for the pure funding rules.

export const MONDAYS = "DTSTART:20270104\nRRULE:FREQ=WEEKLY";

export interface BudgetSpec
  extends Partial<Omit<FundingBudget, "balance" | "fundedAmount" | "targetBalance" | "fundingAmount">> {
  balance?: string;
  funded?: string;
  target?: string;
  amount?: string;
}

/** A FundingBudget with money given as strings; a Goal F with no money unless told. */
export function budget(id: string, spec: BudgetSpec = {}): FundingBudget {
  const { balance = "0", funded, target = "0", amount, ...rest } = spec;
  return {
    id,
    name: id,
    budgetType: "G",
    fundingType: "F",
    isUnallocated: false,
    fundedAmount: toMoney(funded ?? balance),
    fundingAmount: amount === undefined ? null : toMoney(amount),
    targetDate: null,
    fundingSchedule: MONDAYS,
    recurrenceSchedule: null,
    fillupGoalId: null,
    paused: false,
    archived: false,
    complete: false,
    schedulesFrom: "2027-01-01",
    processedThrough: null,
    ...rest,
    balance: toMoney(balance),
    targetBalance: toMoney(target),
  };
}

/** An earlier PARTIAL occurrence of a budget, money as strings. */
export const openOccurrence = (
  budgetId: string,
  scheduledDate: string,
  amount: string,
  moved: string,
): OpenOccurrence => ({
  id: "occurrence-1",
  budgetId,
  scheduledDate,
  amount: toMoney(amount),
  movedAmount: toMoney(moved),
});
