import { BUDGET_NAME_MAX, type budgetFields } from "@allot/contract/budgets/budget";
import type { z } from "zod";

/** The writable Budget fields as the contract parsed them; any may be absent. */
export type BudgetFields = Partial<{
  [K in keyof typeof budgetFields]: z.output<(typeof budgetFields)[K]>;
}>;

/** The `<field>_currency` keys a request may carry; each must be the account's currency. */
export const BUDGET_CURRENCY_KEYS = ["target_balance_currency", "funding_amount_currency"] as const;

export const FILLUP_SUFFIX = " Fill-up";
/**
 * "<name> Fill-up". A name near the 200-character limit is shortened (by code points, so no
 * surrogate pair is split) for the goal's name to fit.
 */
export const fillupName = (name: string) =>
  `${Array.from(name)
    .slice(0, BUDGET_NAME_MAX - FILLUP_SUFFIX.length)
    .join("")}${FILLUP_SUFFIX}`;
