/**
 * The kinds of budget, as the API and the database spell them (docs: api-spec, Budget). Code names
 * a kind, never its letter; a switch over one ends in a `never` default, so a new kind fails to
 * compile wherever it is not handled. No imports: the database schema reads this file too.
 */
export const BUDGET_TYPE = {
  goal: "G",
  recurring: "R",
  /** The associated fill-up goal the service keeps for each Recurring budget. */
  fillup: "A",
  capped: "C",
} as const;
export type BudgetType = (typeof BUDGET_TYPE)[keyof typeof BUDGET_TYPE];
export const BUDGET_TYPES: readonly BudgetType[] = Object.values(BUDGET_TYPE);

/** How a budget is funded: enough each event to reach the target by a date, or a fixed amount. */
export const FUNDING_TYPE = { targetDate: "D", fixedAmount: "F" } as const;
export type FundingType = (typeof FUNDING_TYPE)[keyof typeof FUNDING_TYPE];
export const FUNDING_TYPES: readonly FundingType[] = Object.values(FUNDING_TYPE);
