import type { ForecastSchema } from "@allot/contract/forecasts/forecast";
import { addToTotal, formatMoney, type Money, minMoney, ZERO } from "@allot/contract/money";
import type { z } from "zod";
import { type FundingBudget, headroom, isRetired } from "../funding/funding-budget";
import {
  type OpenOccurrence,
  type PlanItem,
  type PlannedOccurrence,
  type PlanStep,
  planFunding,
} from "../funding/funding-plan";

/** A what-if item on one of its dates. */
export interface ForecastItem extends PlanItem {
  description: string;
}

export interface ForecastInput {
  /** Every budget of the account, Unallocated included, in the order the engine funds ties; what-if budgets last. */
  budgets: readonly FundingBudget[];
  open: readonly OpenOccurrence[];
  /** Each item once per date, in the order given. */
  items: readonly ForecastItem[];
  /** The account's today. */
  today: string;
  until: string;
  /** The days the series has a point on (seriesDates). */
  seriesDates: readonly string[];
  /** More events and items than this are refused (TooManySteps), before they are worked out. */
  maxSteps: number;
}

type Forecast = z.output<typeof ForecastSchema>;
export type ForecastFigures = Pick<Forecast, "unallocated" | "budgets" | "events" | "series">;

const BOTH = new Set(["fund", "recur"] as const);

/**
 * The forecast of docs/spec/extensions.md §8: one funding run through `until` (planFunding, the
 * engine's own plan, on copies of the budgets), with the items applied before the funding events
 * of their dates, read back as the answer's figures. Pure.
 */
export function forecastFunding(input: ForecastInput): ForecastFigures {
  // The plan updates the budgets it is given: the caller's stay as they are.
  const budgets = input.budgets.map((budget) => ({ ...budget }));
  const unallocated = budgets.find((budget) => budget.isUnallocated);
  if (!unallocated) throw new Error("an account without an Unallocated budget cannot be forecast");
  const start = new Map(budgets.map((budget) => [budget.id, budget.balance]));
  const listed = budgets.filter((budget) => !budget.isUnallocated && !budget.archived);
  const names = new Map(budgets.map((budget) => [budget.id, budget.name]));

  const plan = planFunding({
    budgets,
    open: [...input.open],
    horizon: input.until,
    kinds: BOTH,
    items: input.items,
    maxSteps: input.maxSteps,
  });

  const events = plan.steps.map((step) => {
    if (step.kind === "item") {
      const { item } = step;
      return {
        date: item.date,
        kind: "item" as const,
        budget: item.budgetId,
        description: (item as ForecastItem).description,
        intended: formatMoney(item.amount),
        amount: formatMoney(item.amount),
        status: "complete" as const,
        unallocated_after: formatMoney(step.unallocatedAfter),
      };
    }
    const { occurrence } = step;
    return {
      date: occurrence.scheduledDate,
      kind: occurrence.kind,
      budget: occurrence.budgetId,
      description: describe(occurrence, names.get(occurrence.budgetId) ?? occurrence.budgetId),
      intended: formatMoney(step.intended),
      amount: formatMoney(step.moved),
      status: STATUS[occurrence.status],
      unallocated_after: formatMoney(step.unallocatedAfter),
    };
  });

  const figures = budgetFigures(plan.steps, input.open);
  const completesOn = new Map<string, string>();
  for (const { budgetId, date } of plan.completions)
    if (!completesOn.has(budgetId)) completesOn.set(budgetId, date);
  const budgetRows = listed.map((budget) => {
    const own = figures.get(budget.id);
    return {
      budget: budget.id,
      name: budget.name,
      start: formatMoney(start.get(budget.id) ?? ZERO),
      end: formatMoney(budget.balance),
      funded: formatMoney(own?.funded ?? ZERO),
      refreshed: formatMoney(own?.refreshed ?? ZERO),
      // Later runs top its partial occurrences up only as far as it has room (headroom).
      shortfall: formatMoney(isRetired(budget) ? ZERO : minMoney(own?.lacking ?? ZERO, headroom(budget))),
      events: own?.events ?? 0,
      partial_events: own?.partial ?? 0,
      completes_on: completesOn.get(budget.id) ?? null,
    };
  });

  const { series, days } = balancesOverTime(plan, input, start, listed, unallocated.id);
  const [first] = days;
  const lowest = days.reduce(
    (low, day) => (day.balance.lt(low.balance) ? day : low),
    first ?? {
      date: input.today,
      balance: unallocated.balance,
    },
  );
  return {
    unallocated: {
      start: formatMoney(start.get(unallocated.id) ?? ZERO),
      end: formatMoney(unallocated.balance),
      lowest: { date: lowest.date, balance: formatMoney(lowest.balance) },
      first_negative: days.find((day) => day.balance.lt(0))?.date ?? null,
    },
    budgets: budgetRows,
    events,
    series,
  };
}

const STATUS = { COMPLETE: "complete", PARTIAL: "partial", SKIPPED: "skipped" } as const;

function describe(occurrence: PlannedOccurrence, name: string): string {
  if (occurrence.status === "SKIPPED") return `${name}: skipped while paused`;
  if (occurrence.kind === "recur") return `Refreshes ${name} from its fill-up`;
  return occurrence.id === undefined ? `Funds ${name}` : `Tops up ${name}'s partial funding`;
}

interface BudgetFigures {
  funded: Money;
  refreshed: Money;
  /** What its PARTIAL occurrences lack at the end, as their rows would read. */
  lacking: Money;
  events: number;
  partial: number;
}

/**
 * Each budget's totals over the plan's steps. What it lacks is what its occurrences still lack at
 * the end: those the plan left partial, and the open ones it did not reach (a paused budget's).
 */
function budgetFigures(steps: readonly PlanStep[], open: readonly OpenOccurrence[]) {
  const figures = new Map<string, BudgetFigures>();
  const of = (budgetId: string) => {
    let known = figures.get(budgetId);
    if (!known) {
      known = { funded: ZERO, refreshed: ZERO, lacking: ZERO, events: 0, partial: 0 };
      figures.set(budgetId, known);
    }
    return known;
  };
  const reached = new Set<string>();
  for (const step of steps) {
    if (step.kind !== "occurrence") continue;
    const { occurrence, moved } = step;
    const own = of(occurrence.budgetId);
    own.events += 1;
    if (occurrence.kind === "fund") own.funded = own.funded.plus(moved);
    else own.refreshed = own.refreshed.plus(moved);
    if (occurrence.id !== undefined) reached.add(occurrence.id);
    if (occurrence.status === "PARTIAL") {
      own.partial += 1;
      own.lacking = own.lacking.plus(occurrence.amount.minus(occurrence.movedAmount));
    }
  }
  for (const occurrence of open)
    if (!reached.has(occurrence.id)) {
      const own = of(occurrence.budgetId);
      own.lacking = own.lacking.plus(occurrence.amount.minus(occurrence.movedAmount));
    }
  return figures;
}

/**
 * The series and Unallocated's end-of-day balances, recomputed from the plan's transfers and the
 * items it applied (a day's balance is the start plus every move dated on or before it): one point
 * per series day, and Unallocated on today and on every later day something moves, for its lowest
 * point. Moves dated before today count on today; a top-up of an occurrence an earlier run dated
 * after until counts on until, since the run through until makes it.
 */
function balancesOverTime(
  plan: ReturnType<typeof planFunding>,
  input: ForecastInput,
  start: Map<string, Money>,
  listed: readonly FundingBudget[],
  unallocatedId: string,
) {
  const moves: { date: string; budgetId: string; amount: Money }[] = [];
  const notAfterUntil = (date: string) => (date > input.until ? input.until : date);
  for (const transfer of plan.transfers) {
    const date = notAfterUntil(transfer.date);
    moves.push({ date, budgetId: transfer.sourceId, amount: transfer.amount.neg() });
    moves.push({ date, budgetId: transfer.destinationId, amount: transfer.amount });
  }
  for (const step of plan.steps)
    if (step.kind === "item")
      moves.push({
        date: notAfterUntil(step.item.date),
        budgetId: step.item.budgetId ?? unallocatedId,
        amount: step.item.amount,
      });
  moves.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));

  const balances = new Map(start);
  const pointDays = new Set(input.seriesDates);
  const checkpoints = [...new Set([input.today, ...input.seriesDates, ...moves.map((move) => move.date)])]
    .filter((date) => date >= input.today && date <= input.until)
    .sort();
  const series: ForecastFigures["series"] = [];
  const days: { date: string; balance: Money }[] = [];
  let next = 0;
  for (const day of checkpoints) {
    for (; next < moves.length && (moves[next]?.date ?? "") <= day; next++) {
      const move = moves[next];
      if (move) addToTotal(balances, move.budgetId, move.amount);
    }
    const unallocated = balances.get(unallocatedId) ?? ZERO;
    days.push({ date: day, balance: unallocated });
    if (pointDays.has(day))
      series.push({
        date: day,
        unallocated: formatMoney(unallocated),
        budgets: Object.fromEntries(
          listed.map((budget) => [budget.id, formatMoney(balances.get(budget.id) ?? ZERO)]),
        ),
      });
  }
  return { series, days };
}
