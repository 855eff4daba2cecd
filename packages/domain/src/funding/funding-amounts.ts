import Big from "big.js";
import { minMoney as min, ZERO } from "../shared/money";

/*
 * The amount of one event, from the state at the start of its date (docs/spec/operations.md). Never
 * negative; rounded half-up to cents. Pure.
 */

const cents = (amount: Big) => (amount.lte(0) ? ZERO : amount.round(2, Big.roundHalfUp));
const divide = (amount: Big, events: number) => amount.div(Math.max(events, 1));

/** Goal F: the fixed amount, never past the target. */
export const goalFixedAmount = (fundingAmount: Big, target: Big, funded: Big) =>
  cents(min(fundingAmount, target.minus(funded)));

/** Goal D: what is missing, spread over the fund events from this one through target_date. */
export const goalByDateAmount = (target: Big, funded: Big, eventsThroughTargetDate: number) =>
  cents(divide(target.minus(funded), eventsThroughTargetDate));

/** Capped: the fixed amount, refilling up to the cap after spending. */
export const cappedAmount = (fundingAmount: Big, cap: Big, balance: Big) =>
  cents(min(fundingAmount, cap.minus(balance)));

/** Recurring fund (into the fill-up): what the fill-up lacks, over the fund events left before the refresh. */
export const fillupAmount = (target: Big, fillupBalance: Big, eventsBeforeRefresh: number) =>
  cents(divide(target.minus(fillupBalance), eventsBeforeRefresh));

/** Recurring refresh: tops the budget up to its target from what the fill-up holds. */
export const refreshAmount = (target: Big, budgetBalance: Big, fillupBalance: Big) =>
  cents(min(target.minus(budgetBalance), fillupBalance));
