import type { FundingOccurrenceStatus } from "@allot/contract/funding-occurrences/funding-occurrence";
import { formatMoney, type Money, minMoney, toMoney, ZERO } from "@allot/contract/money";
import { latchedComplete } from "../ledger/goal-complete";
import { tracksFunding } from "../ledger/transfers";
import {
  dueFrom,
  type EventKind,
  eventKindOf,
  type FundingBudget,
  fundEventAmount,
  headroom,
  isRetired,
  recurEventAmount,
  Timelines,
} from "./funding-budget";

/** A fund occurrence that moved less than it asked for: later runs top it up. */
export interface OpenOccurrence {
  id: string;
  budgetId: string;
  scheduledDate: string;
  amount: Money;
  movedAmount: Money;
}

/** A PARTIAL funding_occurrences row, its money read exactly. */
export const toOpenOccurrence = (row: {
  id: string;
  budgetId: string;
  scheduledDate: string;
  amount: string;
  movedAmount: string;
}): OpenOccurrence => ({
  id: row.id,
  budgetId: row.budgetId,
  scheduledDate: row.scheduledDate,
  amount: toMoney(row.amount),
  movedAmount: toMoney(row.movedAmount),
});

export interface PlanInput {
  /** Every budget of the account, Unallocated included, in the order ties are funded. */
  budgets: FundingBudget[];
  open: OpenOccurrence[];
  /** Events dated on or before this date are due. */
  horizon: string;
  kinds: ReadonlySet<EventKind>;
  /** Money in or out on a date, applied before the funding events of that date: a forecast's what-ifs. */
  items?: readonly PlanItem[];
  /** A read that answers every step refuses more than this many (TooManySteps), before working them out. */
  maxSteps?: number;
}

/** The plan would take more steps than its caller's maxSteps. */
export class TooManySteps extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} funding events and items`);
  }
}

export interface PlanItem {
  date: string;
  /** null: Unallocated. */
  budgetId: string | null;
  /** Signed: positive is money in. */
  amount: Money;
}

/** One thing the run did, in the order it did them, with Unallocated's balance just after. */
export type PlanStep =
  | { kind: "item"; item: PlanItem; unallocatedAfter: Money }
  | {
      kind: "occurrence";
      occurrence: PlannedOccurrence;
      /** What the engine asked for on its date (a top-up: what it still lacked, within the budget's room). */
      intended: Money;
      /** What moved in this run. */
      moved: Money;
      unallocatedAfter: Money;
    };

export interface PlannedTransfer {
  sourceId: string;
  destinationId: string;
  amount: Money;
  date: string;
  /** Both budgets' balances just after it, as far as this run knows (rows dated later refresh them). */
  sourceBalance: Money;
  destinationBalance: Money;
}

/** What a run leaves an occurrence it reaches (PENDING is only the column's default). */
export type OccurrenceStatus = Exclude<FundingOccurrenceStatus, "PENDING">;

export interface PlannedOccurrence {
  /** Set when an open occurrence is topped up. */
  id?: string;
  budgetId: string;
  kind: EventKind;
  scheduledDate: string;
  status: OccurrenceStatus;
  amount: Money;
  movedAmount: Money;
}

export interface FundingPlan {
  transfers: PlannedTransfer[];
  occurrences: PlannedOccurrence[];
  /** The budgets whose balance, funded amount, complete flag or pointer changed (the same objects, updated). */
  changed: FundingBudget[];
  warnings: string[];
  skippedBudgets: string[];
  /** Every occurrence and item in the order the run took them. */
  steps: PlanStep[];
  /** The Goals the run latched complete, with the date of the event that did it. */
  completions: { budgetId: string; date: string }[];
}

interface Event {
  budget: FundingBudget;
  kind: EventKind;
  date: string;
  open?: OpenOccurrence;
  /** A paused budget's event: recorded SKIPPED, nothing moves. */
  skipped?: true;
}

/**
 * One funding run over an account's budgets, worked out in memory (docs/spec/operations.md §Funding engine):
 * events due after each budget's pointer through the horizon, by date, fund before recur on one
 * date, open partial occurrences first; each amount from the state the earlier events left. Money
 * comes from Unallocated and never takes it below zero: what is missing leaves the occurrence
 * PARTIAL with a warning. Paused budgets' due events are recorded SKIPPED and their pointer stays.
 * The budgets passed in are updated in place; the caller writes what changed.
 */
export function planFunding(input: PlanInput): FundingPlan {
  const { budgets, horizon, kinds } = input;
  const byId = new Map(budgets.map((budget) => [budget.id, budget]));
  const parentOf = new Map<string, FundingBudget>();
  for (const budget of budgets) if (budget.fillupGoalId) parentOf.set(budget.fillupGoalId, budget);
  const unallocated = budgets.find((budget) => budget.isUnallocated);
  const plan: FundingPlan = {
    transfers: [],
    occurrences: [],
    changed: [],
    warnings: [],
    skippedBudgets: [],
    steps: [],
    completions: [],
  };
  if (!unallocated) return plan;
  const changed = new Set<FundingBudget>();
  const timelines = new Timelines();
  const order = new Map(budgets.map((budget, index) => [budget.id, index]));

  const events: Event[] = [];
  const skipped: Event[] = [];
  // Like events, items dated after the horizon are not due.
  const items = (input.items ?? []).filter((item) => item.date <= horizon);
  for (const open of input.open) {
    const budget = byId.get(open.budgetId);
    if (budget && !isRetired(budget) && !budget.paused && !parentOf.get(budget.id)?.paused)
      events.push({ budget, kind: "fund", date: open.scheduledDate, open });
  }
  // The steps are counted as the schedules are enumerated, so a refused plan stops early: the items
  // and the open occurrences the run tops up, then each budget's events.
  let steps = 0;
  const count = (added: number) => {
    steps += added;
    if (input.maxSteps !== undefined && steps > input.maxSteps) throw new TooManySteps(input.maxSteps);
  };
  count(items.length + events.length);
  for (const budget of budgets) {
    const kind = eventKindOf(budget);
    if (!kind || isRetired(budget)) continue;
    const parent = parentOf.get(budget.id);
    if (parent && isRetired(parent)) continue;
    const dates = timelines.between(budget, dueFrom(budget), horizon);
    if (dates.length === 0) continue;
    count(dates.length);
    // A fill-up follows its Recurring budget's pause.
    if (budget.paused || parent?.paused) {
      for (const date of dates) skipped.push({ budget, kind, date, skipped: true });
      const name = (parent ?? budget).name;
      if (!plan.skippedBudgets.includes(name)) plan.skippedBudgets.push(name);
      continue;
    }
    for (const date of dates) events.push({ budget, kind, date });
  }

  // Paused budgets' events are recorded whatever kinds the run takes.
  const due = [...takenEvents(events, parentOf, kinds), ...skipped];
  // By date, items first, then open occurrences, fund before recur, then the budget's place in the
  // list: one text key per step, compared as text.
  const keyed: { key: string; event?: Event; item?: PlanItem }[] = due.map((event) => ({
    event,
    key: `${event.date}1${event.open ? 0 : 1}${event.kind === "fund" ? 0 : 1}${String(order.get(event.budget.id)).padStart(9, "0")}`,
  }));
  items.forEach((item, index) => {
    keyed.push({ item, key: `${item.date}0${String(index).padStart(9, "0")}` });
  });
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

  const move = (source: FundingBudget, destination: FundingBudget, amount: Money, date: string) => {
    source.balance = source.balance.minus(amount);
    destination.balance = destination.balance.plus(amount);
    plan.transfers.push({
      sourceId: source.id,
      destinationId: destination.id,
      amount,
      date,
      sourceBalance: source.balance,
      destinationBalance: destination.balance,
    });
    if (tracksFunding(source)) source.fundedAmount = source.fundedAmount.minus(amount);
    if (tracksFunding(destination)) destination.fundedAmount = destination.fundedAmount.plus(amount);
    if (!destination.complete && latchedComplete(destination)) {
      destination.complete = true;
      plan.completions.push({ budgetId: destination.id, date });
    }
    changed.add(source).add(destination);
  };
  const record = (occurrence: PlannedOccurrence, intended: Money, moved: Money) => {
    plan.occurrences.push(occurrence);
    plan.steps.push({
      kind: "occurrence",
      occurrence,
      intended,
      moved,
      unallocatedAfter: unallocated.balance,
    });
  };

  for (const { event, item } of keyed) {
    if (item) {
      const target = item.budgetId === null ? unallocated : byId.get(item.budgetId);
      if (target) target.balance = target.balance.plus(item.amount);
      plan.steps.push({ kind: "item", item, unallocatedAfter: unallocated.balance });
      continue;
    }
    if (!event) continue;
    const { budget, date } = event;
    if (event.skipped) {
      record(
        {
          budgetId: budget.id,
          kind: event.kind,
          scheduledDate: date,
          status: "SKIPPED",
          amount: ZERO,
          movedAmount: ZERO,
        },
        ZERO,
        ZERO,
      );
      continue;
    }
    if (event.kind === "recur") {
      const fillup = budget.fillupGoalId ? byId.get(budget.fillupGoalId) : undefined;
      if (!fillup) continue;
      const amount = recurEventAmount(budget, fillup);
      // What the budget lacked of its target and the fill-up could not give.
      const short = budget.targetBalance.minus(budget.balance).minus(amount);
      const held = fillup.balance.gt(0) ? fillup.balance : ZERO;
      if (amount.gt(0)) move(fillup, budget, amount, date);
      if (short.gt(0))
        plan.warnings.push(
          `${budget.name}: the refresh of ${date} was ${formatMoney(short)} short; its fill-up held ` +
            `${formatMoney(held)}.`,
        );
      // Complete for this cycle when the refresh brought it to its target; the next refresh decides anew.
      budget.complete = budget.targetBalance.gt(0) && budget.balance.gte(budget.targetBalance);
      budget.processedThrough = date;
      changed.add(budget);
      record(
        {
          budgetId: budget.id,
          kind: "recur",
          scheduledDate: date,
          status: "COMPLETE",
          amount,
          movedAmount: amount,
        },
        amount,
        amount,
      );
      continue;
    }
    // A Goal that completed earlier in this run is not funded further.
    const asked = event.open
      ? minMoney(event.open.amount.minus(event.open.movedAmount), headroom(budget))
      : isRetired(budget)
        ? null
        : fundEventAmount(budget, date, timelines, parentOf.get(budget.id));
    if (!event.open) {
      budget.processedThrough = date;
      changed.add(budget);
    }
    if (asked === null) continue;
    const available = unallocated.balance.gt(0) ? unallocated.balance : ZERO;
    const given = asked.gt(available) ? available : asked;
    if (given.gt(0)) move(unallocated, budget, given, date);
    const short = asked.minus(given);
    const amount = event.open ? event.open.amount : asked;
    const movedAmount = (event.open?.movedAmount ?? ZERO).plus(given);
    record(
      {
        id: event.open?.id,
        budgetId: budget.id,
        kind: "fund",
        scheduledDate: date,
        status: short.gt(0) ? "PARTIAL" : "COMPLETE",
        amount,
        movedAmount,
      },
      asked,
      given,
    );
    if (short.gt(0))
      plan.warnings.push(
        `${budget.name}: the funding of ${date} is ${formatMoney(short)} short; Unallocated held ` +
          `${formatMoney(available)}. A later run tops it up.`,
      );
  }
  plan.changed = [...changed];
  return plan;
}

/**
 * Which events a run limited to some kinds takes. The scheduler's morning job runs recurrences
 * only, yet a fill-up is still funded through the date of its parent's refresh in that run, so
 * one date's fund event always comes before its recur.
 */
function takenEvents(events: Event[], parentOf: Map<string, FundingBudget>, kinds: ReadonlySet<EventKind>) {
  const lastRefresh = new Map<FundingBudget, string>();
  if (kinds.has("recur"))
    for (const event of events)
      if (event.kind === "recur" && event.date > (lastRefresh.get(event.budget) ?? ""))
        lastRefresh.set(event.budget, event.date);
  return events.filter((event) => {
    if (kinds.has(event.kind)) return true;
    const parent = event.kind === "fund" ? parentOf.get(event.budget.id) : undefined;
    const refresh = parent ? lastRefresh.get(parent) : undefined;
    return refresh !== undefined && event.date <= refresh;
  });
}
