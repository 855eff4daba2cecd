import { toMoney } from "@allot/contract/money";
import { describe, expect, it } from "vitest";
import {
  BOTH,
  balances,
  goalF,
  money,
  recurring,
  run,
  unallocated,
} from "../../test/testing/funding-plan-test-kit";
import { openOccurrence } from "../../test/testing/funding-test-budgets";
import type { FundingBudget } from "./funding-budget";
import { type OpenOccurrence, type PlanItem, type PlanStep, planFunding, TooManySteps } from "./funding-plan";

// Budgets fund on Mondays from 2027-01-04 (fill-ups on Tuesdays, refreshes on the 1st from February).

const item = (date: string, amount: string, budgetId: string | null = null): PlanItem => ({
  date,
  budgetId,
  amount: toMoney(amount),
});

/** A plan with items, as a forecast asks for it. */
const plan = (
  budgets: FundingBudget[],
  horizon: string,
  options: { items?: PlanItem[]; open?: OpenOccurrence[]; maxSteps?: number } = {},
) =>
  planFunding({
    budgets,
    open: options.open ?? [],
    horizon,
    kinds: BOTH,
    items: options.items,
    maxSteps: options.maxSteps,
  });

/** The steps as [date, what, budget, moved, Unallocated after]. */
const stepsOf = (steps: PlanStep[]) =>
  steps.map((step) =>
    step.kind === "item"
      ? [step.item.date, "item", step.item.budgetId, money(step.item.amount), money(step.unallocatedAfter)]
      : [
          step.occurrence.scheduledDate,
          `${step.occurrence.kind} ${step.occurrence.status}`,
          step.occurrence.budgetId,
          money(step.moved),
          money(step.unallocatedAfter),
        ],
  );

describe("planFunding: items", () => {
  it("given an item on a fund event's date, when the plan runs, then the item comes first and the event completes", () => {
    // Given
    const u = unallocated("30");
    const car = goalF("Car", "50", "1000");
    // When
    const result = plan([u, car], "2027-01-11", { items: [item("2027-01-04", "20")] });
    // Then
    expect(stepsOf(result.steps)).toEqual([
      ["2027-01-04", "item", null, "20.00", "50.00"],
      ["2027-01-04", "fund COMPLETE", "Car", "50.00", "0.00"],
      ["2027-01-11", "fund PARTIAL", "Car", "0.00", "0.00"],
    ]);
    expect(balances([u, car])).toEqual({ Unallocated: "0.00", Car: "50.00" });
    // Items are not transfers.
    expect(result.transfers.map((t) => [t.date, money(t.amount)])).toEqual([["2027-01-04", "50.00"]]);
  });

  it("given an item into a budget, when the plan runs, then its balance moves, not its funded amount nor Unallocated", () => {
    // Given
    const u = unallocated("100");
    const car = goalF("Car", "50", "100");
    // When
    const result = plan([u, car], "2027-01-11", { items: [item("2027-01-04", "60", "Car")] });
    // Then: money into a Goal is not funding, so it is funded twice more and completes on the 11th.
    expect(stepsOf(result.steps)).toEqual([
      ["2027-01-04", "item", "Car", "60.00", "100.00"],
      ["2027-01-04", "fund COMPLETE", "Car", "50.00", "50.00"],
      ["2027-01-11", "fund COMPLETE", "Car", "50.00", "0.00"],
    ]);
    expect(money(car.balance)).toBe("160.00");
    expect(money(car.fundedAmount)).toBe("100.00");
    expect(result.completions).toEqual([{ budgetId: "Car", date: "2027-01-11" }]);
  });

  it("given negative items, when the plan runs, then Unallocated may go below zero and funding then moves nothing", () => {
    const u = unallocated("40");
    const car = goalF("Car", "50", "1000", { balance: "70" });
    const result = plan([u, car], "2027-01-04", {
      items: [item("2027-01-03", "-60"), item("2027-01-04", "-70", "Car")],
    });
    expect(stepsOf(result.steps)).toEqual([
      ["2027-01-03", "item", null, "-60.00", "-20.00"],
      ["2027-01-04", "item", "Car", "-70.00", "-20.00"],
      ["2027-01-04", "fund PARTIAL", "Car", "0.00", "-20.00"],
    ]);
    expect(balances([u, car])).toEqual({ Unallocated: "-20.00", Car: "0.00" });
    expect(result.transfers).toEqual([]);
  });

  it("given items on one date and on others out of order, when the plan runs, then they go by date and keep their order within a date", () => {
    const u = unallocated("0");
    const items = [
      item("2027-01-05", "1"),
      item("2027-01-04", "2"),
      item("2027-01-04", "-3"),
      item("2027-01-02", "4"),
      item("2027-01-04", "5"),
    ];
    const result = plan([u], "2027-01-31", { items });
    expect(result.steps.map((step) => step.kind === "item" && step.item)).toEqual([
      items[3],
      items[1],
      items[2],
      items[4],
      items[0],
    ]);
    expect(result.steps.map((step) => money(step.unallocatedAfter))).toEqual([
      "4.00",
      "6.00",
      "3.00",
      "8.00",
      "9.00",
    ]);
  });

  it("given an item before a top-up of the same date, when the plan runs, then the item still comes first", () => {
    const u = unallocated("0");
    const car = goalF("Car", "50", "200", { balance: "20", processedThrough: "2027-01-04" });
    const open = [openOccurrence("Car", "2027-01-04", "50", "20")];
    const result = plan([u, car], "2027-01-04", { open, items: [item("2027-01-04", "30")] });
    expect(stepsOf(result.steps)).toEqual([
      ["2027-01-04", "item", null, "30.00", "30.00"],
      ["2027-01-04", "fund COMPLETE", "Car", "30.00", "0.00"],
    ]);
  });

  it("given an item dated after the horizon, when the plan runs, then it is not applied", () => {
    // Given
    const u = unallocated("0");
    const car = goalF("Car", "50", "1000");
    // When
    const result = plan([u, car], "2027-01-04", {
      items: [item("2027-01-05", "500"), item("2027-01-04", "50")],
    });
    // Then: like an event after the horizon, it is not due.
    expect(stepsOf(result.steps)).toEqual([
      ["2027-01-04", "item", null, "50.00", "50.00"],
      ["2027-01-04", "fund COMPLETE", "Car", "50.00", "0.00"],
    ]);
    expect(money(u.balance)).toBe("0.00");
  });
});

describe("planFunding: steps", () => {
  it("given no items, when the plan runs, then its steps are its occurrences in order, with Unallocated after each", () => {
    // Given: a lagging Goal, a Recurring budget with its fill-up, a paused Goal, too little money.
    const u = unallocated("180");
    const [rent, fillup] = recurring("Rent", "100");
    const paused = goalF("Paused", "10", "100", { paused: true });
    const car = goalF("Car", "50", "1000");
    // When
    const result = run([u, car, rent, fillup, paused], "2027-02-01");
    // Then
    expect(result.steps.map((step) => step.kind === "occurrence" && step.occurrence)).toEqual(
      result.occurrences,
    );
    expect(stepsOf(result.steps)).toEqual([
      ["2027-01-04", "fund COMPLETE", "Car", "50.00", "130.00"],
      ["2027-01-04", "fund SKIPPED", "Paused", "0.00", "130.00"],
      ["2027-01-05", "fund COMPLETE", "Rent Fill-up", "25.00", "105.00"],
      ["2027-01-11", "fund COMPLETE", "Car", "50.00", "55.00"],
      ["2027-01-11", "fund SKIPPED", "Paused", "0.00", "55.00"],
      ["2027-01-12", "fund COMPLETE", "Rent Fill-up", "25.00", "30.00"],
      ["2027-01-18", "fund PARTIAL", "Car", "30.00", "0.00"],
      ["2027-01-18", "fund SKIPPED", "Paused", "0.00", "0.00"],
      ["2027-01-19", "fund PARTIAL", "Rent Fill-up", "0.00", "0.00"],
      ["2027-01-25", "fund PARTIAL", "Car", "0.00", "0.00"],
      ["2027-01-25", "fund SKIPPED", "Paused", "0.00", "0.00"],
      ["2027-01-26", "fund PARTIAL", "Rent Fill-up", "0.00", "0.00"],
      ["2027-02-01", "fund PARTIAL", "Car", "0.00", "0.00"],
      ["2027-02-01", "fund SKIPPED", "Paused", "0.00", "0.00"],
      ["2027-02-01", "recur COMPLETE", "Rent", "50.00", "0.00"],
    ]);
  });

  it("given a top-up, when the plan runs, then its step moved what this run gave, not the occurrence's total", () => {
    const u = unallocated("10");
    const car = goalF("Car", "50", "200", { balance: "20", processedThrough: "2027-01-04" });
    const open = [openOccurrence("Car", "2027-01-04", "50", "20")];
    const result = run([u, car], "2027-01-04", { open });
    expect(stepsOf(result.steps)).toEqual([["2027-01-04", "fund PARTIAL", "Car", "10.00", "0.00"]]);
    expect(money(result.occurrences[0]?.movedAmount ?? toMoney("-1"))).toBe("30.00");
  });
});

describe("planFunding: completions", () => {
  it("given Goals that reach their targets, when the plan runs, then each is listed once with the date that did it", () => {
    // Given
    const u = unallocated("1000");
    const car = goalF("Car", "40", "100");
    const bike = goalF("Bike", "100", "100");
    const done = goalF("Done", "10", "100", { balance: "100", complete: true });
    const [rent, fillup] = recurring("Rent", "100");
    // When
    const result = run([u, car, bike, done, rent, fillup], "2027-03-01");
    // Then: Recurring budgets and fill-ups are not Goals; a complete Goal does not complete again.
    expect(result.completions).toEqual([
      { budgetId: "Bike", date: "2027-01-04" },
      { budgetId: "Car", date: "2027-01-18" },
    ]);
    expect(rent.complete).toBe(true);
  });

  it("given a Goal one top-up short of its target, when the top-up completes it, then the completion has the occurrence's date", () => {
    const u = unallocated("1000");
    const car = goalF("Car", "50", "100", { balance: "70", processedThrough: "2027-01-11" });
    const open = [openOccurrence("Car", "2027-01-11", "50", "20")];
    const result = run([u, car], "2027-01-20", { open });
    expect(result.completions).toEqual([{ budgetId: "Car", date: "2027-01-11" }]);
    expect(result.transfers.map((t) => [t.date, money(t.amount)])).toEqual([["2027-01-11", "30.00"]]);
  });
});

describe("planFunding: maxSteps", () => {
  /** Four Mondays in January for Car, four Tuesdays for Rent's fill-up, and two items: ten steps. */
  const world = () => {
    const [rent, fillup] = recurring("Rent", "100");
    return [unallocated("1000"), goalF("Car", "10", "1000"), rent, fillup];
  };
  const items = [item("2027-01-02", "1"), item("2027-01-03", "1")];

  it("given exactly maxSteps events and items, when the plan runs, then it is worked out", () => {
    const result = plan(world(), "2027-01-31", { items, maxSteps: 10 });
    expect(result.steps).toHaveLength(10);
  });

  it("given one step more than maxSteps, when the plan runs, then it throws TooManySteps before changing a budget", () => {
    // Given
    const budgets = world();
    const before = balances(budgets);
    // When
    let thrown: unknown;
    try {
      plan(budgets, "2027-01-31", { items, maxSteps: 9 });
    } catch (error) {
      thrown = error;
    }
    // Then
    expect(thrown).toBeInstanceOf(TooManySteps);
    expect(thrown).toMatchObject({ limit: 9, message: "more than 9 funding events and items" });
    expect(balances(budgets)).toEqual(before);
    expect(budgets.map((b) => b.processedThrough)).toEqual([null, null, null, null]);
  });

  it("given a paused budget, when its skipped events and items exceed maxSteps, then it throws", () => {
    const budgets = [unallocated("1000"), goalF("Car", "10", "1000", { paused: true })];
    expect(() => plan(budgets, "2027-01-31", { items, maxSteps: 5 })).toThrow(TooManySteps);
    expect(plan(budgets, "2027-01-31", { items, maxSteps: 6 }).steps).toHaveLength(6);
  });

  it("given an open occurrence of a paused budget, when the plan runs, then it is not a step and is not counted", () => {
    // Given: two skipped Mondays and two items, four steps; the open occurrence is left as it is.
    const budgets = [
      unallocated("1000"),
      goalF("Car", "10", "1000", { balance: "5", paused: true, processedThrough: "2027-01-04" }),
    ];
    const open = [openOccurrence("Car", "2027-01-04", "10", "5")];
    // When
    const result = plan(budgets, "2027-01-18", { items, open, maxSteps: 4 });
    // Then
    expect(result.steps).toHaveLength(4);
  });

  it("given no maxSteps, when the plan is long, then nothing is refused", () => {
    const result = plan([unallocated("1000"), goalF("Car", "0.01", "1000")], "2029-12-31");
    expect(result.steps.length).toBeGreaterThan(150);
  });
});
