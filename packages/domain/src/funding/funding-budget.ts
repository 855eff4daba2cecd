import {
  BUDGET_TYPE,
  type BudgetType,
  FUNDING_TYPE,
  type FundingType,
} from "@allot/contract/budgets/budget-kinds";
import type { FundingOccurrenceKind } from "@allot/contract/funding-occurrences/funding-occurrence";
import { type Money, toMoney, ZERO } from "@allot/contract/money";
import type { BudgetRow } from "../ledger/balances";
import { unreachable } from "../shared/unreachable";
import {
  cappedAmount,
  fillupAmount,
  goalByDateAmount,
  goalFixedAmount,
  refreshAmount,
} from "./funding-amounts";
import { addDays, eventDates, firstEventFrom } from "./schedule-events";

export type EventKind = FundingOccurrenceKind;

/** What the engine reads of a budget, as Money. Pure: the use cases convert rows to this. */
export interface FundingBudget {
  id: string;
  name: string;
  budgetType: BudgetType;
  fundingType: FundingType;
  isUnallocated: boolean;
  balance: Money;
  fundedAmount: Money;
  targetBalance: Money;
  fundingAmount: Money | null;
  targetDate: string | null;
  fundingSchedule: string;
  recurrenceSchedule: string | null;
  fillupGoalId: string | null;
  paused: boolean;
  archived: boolean;
  complete: boolean;
  schedulesFrom: string;
  processedThrough: string | null;
}

const LOOKAHEAD_DAYS = 10_000;

/** Budget rows in the order the engine funds ties on one date: the budget made first, first. */
export const inFundingOrder = <R extends { createdAt: Date; id: string }>(rows: readonly R[]): R[] =>
  [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));

/** A budget row with its money read exactly. */
export function toFundingBudget(row: BudgetRow): FundingBudget {
  return {
    ...row,
    balance: toMoney(row.balance),
    fundedAmount: toMoney(row.fundedAmount),
    targetBalance: toMoney(row.targetBalance),
    fundingAmount: row.fundingAmount === null ? null : toMoney(row.fundingAmount),
  };
}

/**
 * The one kind of event a budget has: Goals, Capped budgets and fill-up goals are funded from
 * Unallocated (`fund`, on funding_schedule); Recurring budgets are refreshed from their fill-up
 * (`recur`, on recurrence_schedule) and funded only through it. Unallocated has none.
 */
export function eventKindOf(budget: FundingBudget): EventKind | null {
  if (budget.isUnallocated) return null;
  if (budget.budgetType === BUDGET_TYPE.recurring)
    return budget.recurrenceSchedule && budget.fillupGoalId ? "recur" : null;
  return budget.fundingSchedule ? "fund" : null;
}

/** The schedule a budget's events come from. */
export const scheduleOf = (budget: FundingBudget) =>
  (budget.budgetType === BUDGET_TYPE.recurring ? budget.recurrenceSchedule : budget.fundingSchedule) ?? "";

/** The first date whose events are still due: after the pointer, never before the budget existed. */
export function dueFrom(budget: FundingBudget): string {
  const next = budget.processedThrough ? addDays(budget.processedThrough, 1) : budget.schedulesFrom;
  // biome-ignore lint/complexity/useMathMinMax: YYYY-MM-DD strings, compared as text
  return next > budget.schedulesFrom ? next : budget.schedulesFrom;
}

/** Not funded at all: archived, or a Goal latched complete. */
export const isRetired = (budget: FundingBudget) =>
  budget.archived || (budget.budgetType === BUDGET_TYPE.goal && budget.complete);

/**
 * Event dates per schedule, each enumerated once per run and then searched, so a year of events
 * does not walk the schedules again for every event (rrule starts each question at DTSTART), and
 * budgets sharing a schedule share its list.
 */
export class Timelines {
  private readonly lists = new Map<string, { through: string; dates: string[] }>();

  /** The schedule's dates from `from` through at least `through`, ascending. */
  private datesOf(text: string, from: string, through: string): string[] {
    const key = `${from}\n${text}`;
    const known = this.lists.get(key);
    if (known && known.through >= through) return known.dates;
    // A year past what is asked: the run's later questions usually find it enumerated.
    const reach = addDays(through, ENUMERATION_SLACK_DAYS);
    const dates = eventDates(text, from, reach);
    this.lists.set(key, { through: reach, dates });
    return dates;
  }

  /** `budget`'s event dates within [from, through]. */
  between(budget: FundingBudget, from: string, through: string): string[] {
    const dates = this.datesOf(scheduleOf(budget), budget.schedulesFrom, through);
    return dates.slice(firstIndexFrom(dates, from), firstIndexAfter(dates, through));
  }

  /** How many of `budget`'s events fall within [from, through]. */
  count(budget: FundingBudget, from: string, through: string): number {
    if (from > through) return 0;
    const dates = this.datesOf(scheduleOf(budget), budget.schedulesFrom, through);
    return firstIndexAfter(dates, through) - firstIndexFrom(dates, from);
  }

  /** `budget`'s first event on or after `from`, or null if it has none. */
  first(budget: FundingBudget, from: string): string | null {
    const dates = this.datesOf(
      scheduleOf(budget),
      budget.schedulesFrom,
      addDays(from, ENUMERATION_SLACK_DAYS),
    );
    return dates[firstIndexFrom(dates, from)] ?? firstEventFrom(scheduleOf(budget), from);
  }
}

const ENUMERATION_SLACK_DAYS = 366;

/** Index of the first date ≥ `date` in an ascending list (its length when there is none). */
function firstIndexFrom(dates: readonly string[], date: string): number {
  let low = 0;
  let high = dates.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((dates[middle] ?? "") < date) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Index of the first date > `date` in an ascending list. */
const firstIndexAfter = (dates: readonly string[], date: string) => firstIndexFrom(dates, `${date}~`);

/**
 * The date of the refresh a fill-up's fund event on `date` works toward: the parent's first
 * recurrence after that date that has not been processed yet. An event on a refresh day belongs
 * to the next cycle (it runs before that day's refresh, and is one of the next refresh's events).
 */
export function nextRefresh(parent: FundingBudget, date: string, timelines: Timelines): string | null {
  const from = dueFrom(parent);
  const after = addDays(date, 1);
  // biome-ignore lint/complexity/useMathMinMax: YYYY-MM-DD strings, compared as text
  return timelines.first(parent, after > from ? after : from);
}

/**
 * What a fund event of `budget` on `date` asks for, from the budget's current state. `parent` is
 * the Recurring budget of a fill-up goal.
 */
export function fundEventAmount(
  budget: FundingBudget,
  date: string,
  timelines: Timelines,
  parent?: FundingBudget,
): Money {
  switch (budget.budgetType) {
    case BUDGET_TYPE.goal: {
      if (budget.complete) return ZERO;
      if (budget.fundingType === FUNDING_TYPE.fixedAmount)
        return goalFixedAmount(budget.fundingAmount ?? ZERO, budget.targetBalance, budget.fundedAmount);
      // Enumerations stop this far ahead: a target date decades away costs a bounded list (its
      // per-event share is then a slight over-estimate, never a long loop).
      const limit = addDays(date, LOOKAHEAD_DAYS);
      const through = budget.targetDate ?? date;
      // biome-ignore lint/complexity/useMathMinMax: YYYY-MM-DD strings, compared as text
      const events = timelines.count(budget, date, through < limit ? through : limit);
      return goalByDateAmount(budget.targetBalance, budget.fundedAmount, events);
    }
    case BUDGET_TYPE.capped:
      return cappedAmount(budget.fundingAmount ?? ZERO, budget.targetBalance, budget.balance);
    case BUDGET_TYPE.fillup: {
      // The fund events from this one up to the day before the refresh.
      const refresh = parent ? nextRefresh(parent, date, timelines) : null;
      const events = refresh ? timelines.count(budget, date, addDays(refresh, -1)) : 1;
      return fillupAmount(budget.targetBalance, budget.balance, events);
    }
    case BUDGET_TYPE.recurring:
      // Funded only through its fill-up goal: its own events are refreshes.
      return ZERO;
    default:
      return unreachable(budget.budgetType);
  }
}

/** What a Recurring budget's refresh moves from its fill-up. */
export const recurEventAmount = (budget: FundingBudget, fillup: FundingBudget) =>
  refreshAmount(budget.targetBalance, budget.balance, fillup.balance);

/** How much more a budget can take before a partly funded event's shortfall stops mattering. */
export function headroom(budget: FundingBudget): Money {
  const room =
    budget.budgetType === BUDGET_TYPE.goal
      ? budget.targetBalance.minus(budget.fundedAmount)
      : budget.targetBalance.minus(budget.balance);
  return room.lt(0) ? ZERO : room;
}
