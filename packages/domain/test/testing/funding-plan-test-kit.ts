import { type Money, sumMoney, ZERO } from "@allot/contract/money";
import { expect } from "vitest";
import type { EventKind, FundingBudget } from "../../src/funding/funding-budget";
import {
  type FundingPlan,
  type OpenOccurrence,
  type PlanInput,
  planFunding,
} from "../../src/funding/funding-plan";
import { type BudgetSpec, budget } from "./funding-test-budgets";

/* The funding plan tests' budgets, event kinds and the checked run they all go through. */

// 2027-01-04 is a Monday; 2027-02-01 and 2027-03-01 are Mondays too.
export const TUESDAYS = "DTSTART:20270105\nRRULE:FREQ=WEEKLY";
export const FIRST_OF_MONTH = "DTSTART:20270201\nRRULE:FREQ=MONTHLY";

export const unallocated = (balance: string) =>
  budget("Unallocated", { balance, funded: "0", isUnallocated: true, fundingSchedule: "" });

export const goalF = (id: string, amount: string, target: string, spec: BudgetSpec = {}) =>
  budget(id, { amount, target, ...spec });

export const goalD = (id: string, target: string, targetDate: string, spec: BudgetSpec = {}) =>
  budget(id, { fundingType: "D", target, targetDate, ...spec });

export const capped = (id: string, amount: string, cap: string, spec: BudgetSpec = {}) =>
  budget(id, { budgetType: "C", amount, target: cap, funded: "0", ...spec });

/** A Recurring budget and its fill-up goal (funding schedule mirrored onto the fill-up). */
export function recurring(id: string, target: string, spec: { fund?: string; refresh?: string } = {}) {
  const fund = spec.fund ?? TUESDAYS;
  const r = budget(id, {
    budgetType: "R",
    fundingType: "D",
    target,
    funded: "0",
    fundingSchedule: fund,
    recurrenceSchedule: spec.refresh ?? FIRST_OF_MONTH,
    fillupGoalId: `${id} Fill-up`,
  });
  const fillup = budget(`${id} Fill-up`, {
    budgetType: "A",
    fundingType: "D",
    target,
    fundingSchedule: fund,
  });
  return [r, fillup] as const;
}

export const BOTH: ReadonlySet<EventKind> = new Set(["fund", "recur"]);
export const FUND_ONLY: ReadonlySet<EventKind> = new Set(["fund"]);
export const RECUR_ONLY: ReadonlySet<EventKind> = new Set(["recur"]);

export const money = (value: Money) => value.toFixed(2);
export const total = (budgets: FundingBudget[]) => sumMoney(budgets.map((b) => b.balance));
export const balances = (budgets: FundingBudget[]) =>
  Object.fromEntries(budgets.map((b) => [b.id, money(b.balance)]));
export const transfersOf = (plan: FundingPlan) =>
  plan.transfers.map((t) => [t.date, t.sourceId, t.destinationId, money(t.amount)]);
export type OccurrenceRow = [
  date: string,
  budgetId: string,
  kind: string,
  status: string,
  amount: string,
  moved: string,
];
export const occurrencesOf = (plan: FundingPlan) =>
  plan.occurrences.map(
    (o): OccurrenceRow => [
      o.scheduledDate,
      o.budgetId,
      o.kind,
      o.status,
      money(o.amount),
      money(o.movedAmount),
    ],
  );

/**
 * One run, checked against the engine's invariants: money only moves between the account's
 * budgets (the sum of balances is unchanged, and the transfers replayed from the starting balances
 * give the final ones), every transfer is positive, Unallocated never goes below zero through the
 * run's own moves, and a second run over the same (mutated) budgets and horizon moves nothing.
 */
export function run(
  budgets: FundingBudget[],
  horizon: string,
  options: { open?: OpenOccurrence[]; kinds?: ReadonlySet<EventKind> } = {},
) {
  const input: PlanInput = { budgets, open: options.open ?? [], horizon, kinds: options.kinds ?? BOTH };
  const before = new Map(budgets.map((b) => [b.id, b.balance]));
  const sumBefore = total(budgets);
  const plan = planFunding(input);

  expect(money(total(budgets))).toBe(money(sumBefore));
  const replayed = new Map(before);
  const unallocatedId = budgets.find((b) => b.isUnallocated)?.id;
  for (const transfer of plan.transfers) {
    expect(transfer.amount.gt(0)).toBe(true);
    expect(transfer.date <= horizon).toBe(true);
    const source = replayed.get(transfer.sourceId);
    const destination = replayed.get(transfer.destinationId);
    if (!source || !destination) throw new Error(`A transfer names an unknown budget: ${transfer.sourceId}`);
    replayed.set(transfer.sourceId, source.minus(transfer.amount));
    replayed.set(transfer.destinationId, destination.plus(transfer.amount));
    if (transfer.sourceId === unallocatedId) expect(replayed.get(transfer.sourceId)?.gte(0)).toBe(true);
  }
  for (const b of budgets) expect(money(replayed.get(b.id) ?? ZERO)).toBe(money(b.balance));
  const dates = plan.transfers.map((t) => t.date);
  expect(dates).toEqual([...dates].sort());

  const again = planFunding({ ...input, open: [] });
  expect(again.transfers).toEqual([]);
  expect(again.changed).toEqual([]);
  expect(money(total(budgets))).toBe(money(sumBefore));
  return plan;
}
