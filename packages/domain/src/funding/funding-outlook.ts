import { BUDGET_TYPE, FUNDING_TYPE } from "@allot/contract/budgets/budget-kinds";
import { decimal, type Money, minMoney } from "@allot/contract/money";
import {
  dueFrom,
  eventKindOf,
  type FundingBudget,
  fundEventAmount,
  headroom,
  isRetired,
  Timelines,
} from "./funding-budget";
import type { OpenOccurrence } from "./funding-plan";
import { addDays, eventDates, firstEventFrom } from "./schedule-events";

export type FundingPace = "ahead" | "on_track" | "behind";

export interface FundingOutlook {
  nextFunding: { date: string; amount: Money } | null;
  nextRecurrence: string | null;
  fundingPace: FundingPace | null;
}

// Within this many percentage points of the schedule a Goal is on track.
const ON_TRACK_POINTS = 5;
const PACE_LOOKAHEAD_DAYS = 10_000;

/**
 * A budget's read-only funding fields (docs/spec/operations.md). `next_funding` is the first due or upcoming
 * event and its amount from the current state (an open partial occurrence first, for what it still
 * lacks); null when paused, archived, complete, a Recurring budget (its fill-up carries it), or
 * the amount is zero. `next_recurrence` is a Recurring budget's next refresh, null when paused or
 * archived. `funding_pace` (Goal D only) compares the funded share of the target with the share of
 * fund events elapsed since the budget's schedules began. Pure: `today` is the account's date.
 */
export function fundingOutlook(
  budget: FundingBudget,
  today: string,
  related: { parent?: FundingBudget; open?: OpenOccurrence } = {},
): FundingOutlook {
  const { parent, open } = related;
  const idle = isRetired(budget) || budget.paused || Boolean(parent?.paused) || (parent && isRetired(parent));
  let nextFunding: FundingOutlook["nextFunding"] = null;
  if (!idle && eventKindOf(budget) === "fund" && !budget.complete) {
    if (open) {
      const lacking = open.amount.minus(open.movedAmount);
      nextFunding = { date: open.scheduledDate, amount: minMoney(lacking, headroom(budget)) };
    } else {
      const date = firstEventFrom(budget.fundingSchedule, dueFrom(budget));
      if (date) nextFunding = { date, amount: fundEventAmount(budget, date, new Timelines(), parent) };
    }
    if (nextFunding && !nextFunding.amount.gt(0)) nextFunding = null;
  }
  const nextRecurrence =
    eventKindOf(budget) === "recur" && !budget.archived && !budget.paused
      ? firstEventFrom(budget.recurrenceSchedule ?? "", dueFrom(budget))
      : null;
  return { nextFunding, nextRecurrence, fundingPace: fundingPace(budget, today) };
}

function fundingPace(budget: FundingBudget, today: string): FundingPace | null {
  if (
    budget.budgetType !== BUDGET_TYPE.goal ||
    budget.fundingType !== FUNDING_TYPE.targetDate ||
    budget.isUnallocated
  )
    return null;
  if (budget.archived || !budget.targetDate) return null;
  const target = budget.targetBalance;
  const reached = budget.fundedAmount.gte(target);
  if (today > budget.targetDate && !reached) return "behind";
  const limit = addDays(budget.schedulesFrom, PACE_LOOKAHEAD_DAYS);
  const dates = eventDates(
    budget.fundingSchedule,
    budget.schedulesFrom,
    // biome-ignore lint/complexity/useMathMinMax: YYYY-MM-DD strings, compared as text
    budget.targetDate < limit ? budget.targetDate : limit,
  );
  const elapsed = dates.filter((date) => date <= today).length;
  // Shares in percent: exact decimals, not money (never rounded to cents).
  const elapsedShare = dates.length > 0 ? decimal(elapsed).times(100).div(dates.length) : decimal(100);
  const fundedShare = target.gt(0) ? budget.fundedAmount.times(100).div(target) : decimal(100);
  const lead = fundedShare.minus(elapsedShare);
  if (lead.abs().lte(ON_TRACK_POINTS)) return "on_track";
  return lead.gt(0) ? "ahead" : "behind";
}
