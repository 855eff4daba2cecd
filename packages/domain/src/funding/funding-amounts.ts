import { type Money, minMoney as min, toMoney, ZERO } from "@allot/contract/money";
import type Big from "big.js";

/*
 * The amount of one event, from the state at the start of its date (docs/spec/operations.md). Never
 * negative; rounded half-up to cents. Pure.
 */

// A share of an amount over several events is a quotient (Big), money again once rounded to cents.
const cents = (amount: Big): Money => (amount.lte(0) ? ZERO : toMoney(amount));
const divide = (amount: Money, events: number): Big => amount.div(Math.max(events, 1));

/** Goal F: the fixed amount, never past the target. */
export const goalFixedAmount = (fundingAmount: Money, target: Money, funded: Money) =>
  cents(min(fundingAmount, target.minus(funded)));

/** Goal D: what is missing, spread over the fund events from this one through target_date. */
export const goalByDateAmount = (target: Money, funded: Money, eventsThroughTargetDate: number) =>
  cents(divide(target.minus(funded), eventsThroughTargetDate));

/** Capped: the fixed amount, refilling up to the cap after spending. */
export const cappedAmount = (fundingAmount: Money, cap: Money, balance: Money) =>
  cents(min(fundingAmount, cap.minus(balance)));

/** Recurring fund (into the fill-up): what the fill-up lacks, over the fund events left before the refresh. */
export const fillupAmount = (target: Money, fillupBalance: Money, eventsBeforeRefresh: number) =>
  cents(divide(target.minus(fillupBalance), eventsBeforeRefresh));

/** Recurring refresh: tops the budget up to its target from what the fill-up holds. */
export const refreshAmount = (target: Money, budgetBalance: Money, fillupBalance: Money) =>
  cents(min(target.minus(budgetBalance), fillupBalance));
