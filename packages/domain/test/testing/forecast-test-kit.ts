import type { ForecastInterval } from "@allot/contract/forecasts/forecast";
import { addToTotal, formatMoney, type Money, toMoney, ZERO } from "@allot/contract/money";
import { expect } from "vitest";
import {
  type ForecastFigures,
  type ForecastItem,
  forecastFunding,
} from "../../src/forecasts/forecast-funding";
import { seriesDates } from "../../src/forecasts/series-dates";
import type { FundingBudget } from "../../src/funding/funding-budget";
import type { OpenOccurrence } from "../../src/funding/funding-plan";
import { addDays } from "../../src/funding/schedule-events";

/* The forecast calculator's tests: one call of forecastFunding, and every figure it answers recomputed here. */

export interface ForecastCase {
  /** Every budget of the account, Unallocated included, in the engine's order. */
  budgets: FundingBudget[];
  today: string;
  until: string;
  items?: ForecastItem[];
  open?: OpenOccurrence[];
  interval?: ForecastInterval;
  maxSteps?: number;
}

/** A what-if item on one date; `budget` null (the default) is Unallocated. */
export const item = (
  date: string,
  amount: string,
  budget: string | null = null,
  description = `Item of ${amount}`,
): ForecastItem => ({ date, budgetId: budget, amount: toMoney(amount), description });

/** One forecast, every derived figure checked against a recomputation from its inputs and its events. */
export function forecast(input: ForecastCase): ForecastFigures {
  const starts = new Map(input.budgets.map((b) => [b.id, b.balance]));
  const figures = calculate(input);
  // The caller's budgets are read, not changed.
  for (const b of input.budgets) expect(formatMoney(b.balance)).toBe(formatMoney(starts.get(b.id) ?? ZERO));
  checkFigures(input, figures);
  return figures;
}

/** forecastFunding on the case, unchecked. */
export const calculate = (input: ForecastCase): ForecastFigures =>
  forecastFunding({
    budgets: input.budgets,
    open: input.open ?? [],
    items: input.items ?? [],
    today: input.today,
    until: input.until,
    seriesDates: seriesDates(input.today, input.until, input.interval ?? "day"),
    maxSteps: input.maxSteps ?? 100_000,
  });

/** The row of one budget in a forecast. */
export function rowOf(figures: ForecastFigures, id: string) {
  const row = figures.budgets.find((b) => b.budget === id);
  if (!row) throw new Error(`no row for ${id}`);
  return row;
}

/** The events as [date, kind, budget, intended, amount, status, unallocated_after]. */
export const eventRows = (figures: ForecastFigures) =>
  figures.events.map((e) => [e.date, e.kind, e.budget, e.intended, e.amount, e.status, e.unallocated_after]);

/**
 * Every figure the forecast derives, recomputed from the starting budgets and the events list
 * alone (the events' own arithmetic is checked first: each one moves its amount between the
 * budgets it names, and Unallocated's balance after it follows).
 */
function checkFigures(input: ForecastCase, figures: ForecastFigures) {
  const unallocated = input.budgets.find((b) => b.isUnallocated);
  if (!unallocated) throw new Error("a case needs an Unallocated budget");
  const U = unallocated.id;
  const fillupOf = new Map(input.budgets.filter((b) => b.fillupGoalId).map((b) => [b.id, b.fillupGoalId]));
  const listed = input.budgets.filter((b) => !b.isUnallocated && !b.archived);
  const start = (id: string) => input.budgets.find((b) => b.id === id)?.balance ?? ZERO;

  // Each event's effect on the balances, by budget id.
  const effects = figures.events.map((e) => {
    const amount = toMoney(e.amount);
    const effect = new Map<string, Money>();
    if (e.kind === "item") addToTotal(effect, e.budget ?? U, amount);
    else if (e.kind === "fund") {
      addToTotal(effect, U, amount.neg());
      addToTotal(effect, e.budget ?? "", amount);
    } else {
      const fillup = fillupOf.get(e.budget ?? "");
      if (!fillup) throw new Error(`a recur event of ${e.budget}, which has no fill-up`);
      addToTotal(effect, fillup, amount.neg());
      addToTotal(effect, e.budget ?? "", amount);
    }
    return effect;
  });

  // The events: in date order, items as intended, skipped ones moving nothing, Unallocated after each.
  const dates = figures.events.map((e) => e.date);
  expect(dates).toEqual([...dates].sort());
  // What each event breaks of these rules, if anything (one assertion for them all: a long forecast has many).
  let unallocatedNow = start(U);
  const broken = figures.events.flatMap((e, index) => {
    const problems: string[] = [];
    const say = (ok: boolean, what: string) => {
      if (!ok) problems.push(`event ${index} (${e.date} ${e.kind} ${e.budget}): ${what}`);
    };
    unallocatedNow = unallocatedNow.plus(effects[index]?.get(U) ?? ZERO);
    say(
      e.unallocated_after === formatMoney(unallocatedNow),
      `unallocated_after is not ${formatMoney(unallocatedNow)}`,
    );
    if (e.kind === "item") {
      say(e.status === "complete" && e.amount === e.intended, "an item is complete, as intended");
      say(e.date >= input.today && e.date <= input.until, "an item is dated from today through until");
    } else {
      say(e.budget !== null, "an event names its budget");
      say(toMoney(e.amount).gte(0), "an event moves nothing negative");
      // Only a top-up keeps a date after until: the open occurrence's, which an earlier run dated ahead.
      say(
        e.date <= input.until ||
          (input.open ?? []).some((o) => o.budgetId === e.budget && o.scheduledDate === e.date),
        "only a top-up is dated after until",
      );
      if (e.status === "skipped")
        say(e.intended === "0.00" && e.amount === "0.00", "a skipped event is 0.00");
      if (e.status === "partial")
        say(toMoney(e.amount).lt(toMoney(e.intended)), "a partial event moves less");
    }
    return problems;
  });
  expect(broken).toEqual([]);

  // Unallocated's end: its start, plus its items, less every fund event.
  const sumOf = (keep: (e: ForecastFigures["events"][number]) => boolean) =>
    figures.events.filter(keep).reduce((sum, e) => sum.plus(toMoney(e.amount)), ZERO);
  const unallocatedEnd = start(U)
    .plus(sumOf((e) => e.kind === "item" && e.budget === null))
    .minus(sumOf((e) => e.kind === "fund"));
  expect(figures.unallocated.start).toBe(formatMoney(start(U)));
  expect(figures.unallocated.end).toBe(formatMoney(unallocatedEnd));

  // One row per listed budget, in order; each one's figures from its own events.
  expect(figures.budgets.map((row) => row.budget)).toEqual(listed.map((b) => b.id));
  const parentOf = new Map([...fillupOf].map(([parent, fillup]) => [fillup, parent]));
  for (const b of listed) {
    const row = rowOf(figures, b.id);
    const own = figures.events.filter((e) => e.kind !== "item" && e.budget === b.id);
    const funded = sumOf((e) => e.kind === "fund" && e.budget === b.id);
    const refreshed = sumOf((e) => e.kind === "recur" && e.budget === b.id);
    const items = sumOf((e) => e.kind === "item" && e.budget === b.id);
    // A fill-up gives its parent's refreshes.
    const movedOut = sumOf((e) => e.kind === "recur" && e.budget === parentOf.get(b.id));
    expect(row.name).toBe(b.name);
    expect(row.start).toBe(formatMoney(b.balance));
    expect(row.funded).toBe(formatMoney(funded));
    expect(row.refreshed).toBe(formatMoney(refreshed));
    expect(row.end, `end of ${b.id}`).toBe(
      formatMoney(b.balance.plus(funded).plus(refreshed).plus(items).minus(movedOut)),
    );
    expect(row.events).toBe(own.length);
    expect(row.partial_events).toBe(own.filter((e) => e.status === "partial").length);
    // What its partial events leave its occurrences lacking (a top-up's open occurrence: what it
    // lacked less what moved now), and its open occurrences the forecast did not reach; later runs
    // top them up only as far as the budget has room: a Goal to its target's funded amount, any
    // other to its target balance; a Goal complete at the end has none.
    const openOf = (e: ForecastFigures["events"][number]) =>
      (input.open ?? []).find((o) => o.budgetId === b.id && o.scheduledDate === e.date);
    const untouched = (input.open ?? []).filter(
      (o) =>
        o.budgetId === b.id &&
        !own.some((e) => e.kind === "fund" && e.date === o.scheduledDate && e.status !== "skipped"),
    );
    const lacking = own
      .filter((e) => e.status === "partial")
      .reduce((sum, e) => {
        const open = e.kind === "fund" ? openOf(e) : undefined;
        const gap = open ? open.amount.minus(open.movedAmount) : toMoney(e.intended);
        return sum.plus(gap).minus(toMoney(e.amount));
      }, ZERO)
      .plus(untouched.reduce((sum, o) => sum.plus(o.amount).minus(o.movedAmount), ZERO));
    const isGoal = b.budgetType === "G";
    const room = isGoal
      ? b.targetBalance.minus(b.fundedAmount.plus(funded))
      : b.targetBalance.minus(toMoney(row.end));
    const retired = b.archived || (isGoal && (b.complete || row.completes_on !== null));
    const shortfall = retired
      ? ZERO
      : [lacking, room.lt(0) ? ZERO : room].reduce((x, y) => (x.lt(y) ? x : y));
    expect(row.shortfall, `shortfall of ${b.id}`).toBe(formatMoney(shortfall));
  }

  // Every day from today through until, its end-of-day balances: the start plus the events dated
  // on or before it (those before today count on today, a top-up dated after until on until).
  // Unallocated's lowest is the first day it is reached; first_negative the first day below zero.
  const expectedSeries: ForecastFigures["series"] = [];
  const pointDays = new Set(seriesDates(input.today, input.until, input.interval ?? "day"));
  const balances = new Map(input.budgets.map((b) => [b.id, b.balance]));
  let lowest: { date: string; balance: Money } | null = null;
  let firstNegative: string | null = null;
  let next = 0;
  for (let day = input.today; day <= input.until; day = addDays(day, 1)) {
    for (; next < figures.events.length; next++) {
      const date = figures.events[next]?.date ?? "";
      // A date after until counts on until.
      if (date > day && (date <= input.until || day < input.until)) break;
      for (const [id, amount] of effects[next] ?? []) addToTotal(balances, id, amount);
    }
    const balance = balances.get(U) ?? ZERO;
    if (!lowest || balance.lt(lowest.balance)) lowest = { date: day, balance };
    if (firstNegative === null && balance.lt(0)) firstNegative = day;
    if (pointDays.has(day))
      expectedSeries.push({
        date: day,
        unallocated: formatMoney(balance),
        budgets: Object.fromEntries(listed.map((b) => [b.id, formatMoney(balances.get(b.id) ?? ZERO)])),
      });
  }
  expect(next).toBe(figures.events.length);
  expect(figures.series).toEqual(expectedSeries);
  expect(figures.unallocated.lowest).toEqual({
    date: lowest?.date,
    balance: formatMoney(lowest?.balance ?? ZERO),
  });
  expect(figures.unallocated.first_negative).toBe(firstNegative);
}
