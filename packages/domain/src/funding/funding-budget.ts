import Big from "big.js";
import type { BudgetRow } from "../ledger/balances";
import { ZERO } from "../shared/money";
import {
  cappedAmount,
  fillupAmount,
  goalByDateAmount,
  goalFixedAmount,
  refreshAmount,
} from "./funding-amounts";
import { addDays, eventDates, firstEventFrom } from "./schedule-events";

export type EventKind = "fund" | "recur";

/** What the engine reads of a budget, money as Big. Pure: the use cases convert rows to this. */
export interface FundingBudget {
  id: string;
  name: string;
  budgetType: string;
  fundingType: string;
  isUnallocated: boolean;
  balance: Big;
  fundedAmount: Big;
  targetBalance: Big;
  fundingAmount: Big | null;
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

/** A budget row with its money read exactly. */
export function toFundingBudget(row: BudgetRow): FundingBudget {
  return {
    ...row,
    balance: new Big(row.balance),
    fundedAmount: new Big(row.fundedAmount),
    targetBalance: new Big(row.targetBalance),
    fundingAmount: row.fundingAmount === null ? null : new Big(row.fundingAmount),
  };
}

/**
 * The one kind of event a budget has: Goals, Capped budgets and fill-up goals are funded from
 * Unallocated (`fund`, on funding_schedule); Recurring budgets are refreshed from their fill-up
 * (`recur`, on recurrence_schedule) and funded only through it. Unallocated has none.
 */
export function eventKindOf(budget: FundingBudget): EventKind | null {
  if (budget.isUnallocated) return null;
  if (budget.budgetType === "R") return budget.recurrenceSchedule && budget.fillupGoalId ? "recur" : null;
  return budget.fundingSchedule ? "fund" : null;
}

/** The schedule a budget's events come from. */
export const scheduleOf = (budget: FundingBudget) =>
  (budget.budgetType === "R" ? budget.recurrenceSchedule : budget.fundingSchedule) ?? "";

/** The first date whose events are still due: after the pointer, never before the budget existed. */
export function dueFrom(budget: FundingBudget): string {
  const next = budget.processedThrough ? addDays(budget.processedThrough, 1) : budget.schedulesFrom;
  // biome-ignore lint/complexity/useMathMinMax: YYYY-MM-DD strings, compared as text
  return next > budget.schedulesFrom ? next : budget.schedulesFrom;
}

/** Not funded at all: archived, or a Goal latched complete. */
export const isRetired = (budget: FundingBudget) =>
  budget.archived || (budget.budgetType === "G" && budget.complete);

/**
 * Event dates per budget, each list enumerated once and then counted, so a run over a year of
 * events does not walk the schedules again for every event.
 */
export class Timelines {
  private readonly lists = new Map<string, string[]>();

  /** `budget`'s event dates from its first day through `through` (whatever its pointer says). */
  datesOf(budget: FundingBudget, through: string): string[] {
    const key = `${budget.id}:${through}`;
    let dates = this.lists.get(key);
    if (!dates) {
      dates = eventDates(scheduleOf(budget), budget.schedulesFrom, through);
      this.lists.set(key, dates);
    }
    return dates;
  }

  /** How many of `budget`'s events fall within [from, through]. */
  count(budget: FundingBudget, from: string, through: string): number {
    let n = 0;
    for (const date of this.datesOf(budget, through)) if (date >= from) n += 1;
    return n;
  }
}

/**
 * The date of the refresh a fill-up's fund event on `date` works toward: the parent's first
 * recurrence on or after that date that has not been processed yet.
 */
export function nextRefresh(parent: FundingBudget, date: string): string | null {
  const from = dueFrom(parent);
  return firstEventFrom(parent.recurrenceSchedule ?? "", date > from ? date : from);
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
): Big {
  // Enumerations stop this far ahead: a target date decades away costs a bounded list (its
  // per-event share is then a slight over-estimate, never a long loop).
  const limit = addDays(date, LOOKAHEAD_DAYS);
  const upTo = (through: string) => (through < limit ? through : limit);
  switch (budget.budgetType) {
    case "G": {
      if (budget.complete) return ZERO;
      if (budget.fundingType === "F")
        return goalFixedAmount(budget.fundingAmount ?? ZERO, budget.targetBalance, budget.fundedAmount);
      const events = timelines.count(budget, date, upTo(budget.targetDate ?? date));
      return goalByDateAmount(budget.targetBalance, budget.fundedAmount, events);
    }
    case "C":
      return cappedAmount(budget.fundingAmount ?? ZERO, budget.targetBalance, budget.balance);
    case "A": {
      const refresh = parent ? nextRefresh(parent, date) : null;
      const events = refresh ? timelines.count(budget, date, upTo(refresh)) : 1;
      return fillupAmount(budget.targetBalance, budget.balance, events);
    }
    default:
      return ZERO;
  }
}

/** What a Recurring budget's refresh moves from its fill-up. */
export const recurEventAmount = (budget: FundingBudget, fillup: FundingBudget) =>
  refreshAmount(budget.targetBalance, budget.balance, fillup.balance);

/** How much more a budget can take before a partly funded event's shortfall stops mattering. */
export function headroom(budget: FundingBudget): Big {
  const room =
    budget.budgetType === "G"
      ? budget.targetBalance.minus(budget.fundedAmount)
      : budget.targetBalance.minus(budget.balance);
  return room.lt(0) ? ZERO : room;
}
