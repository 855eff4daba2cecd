import Big from "big.js";
import { describe, expect, it } from "vitest";
import type { EventKind, FundingBudget } from "./funding-budget";
import { type FundingPlan, type OpenOccurrence, type PlanInput, planFunding } from "./funding-plan";
import { type BudgetSpec, budget, MONDAYS, openOccurrence } from "./funding-test-budgets";

// 2027-01-04 is a Monday; 2027-02-01 and 2027-03-01 are Mondays too.
const TUESDAYS = "DTSTART:20270105\nRRULE:FREQ=WEEKLY";
const FIRST_OF_MONTH = "DTSTART:20270201\nRRULE:FREQ=MONTHLY";

const unallocated = (balance: string) =>
  budget("Unallocated", { balance, funded: "0", isUnallocated: true, fundingSchedule: "" });

const goalF = (id: string, amount: string, target: string, spec: BudgetSpec = {}) =>
  budget(id, { amount, target, ...spec });

const goalD = (id: string, target: string, targetDate: string, spec: BudgetSpec = {}) =>
  budget(id, { fundingType: "D", target, targetDate, ...spec });

const capped = (id: string, amount: string, cap: string, spec: BudgetSpec = {}) =>
  budget(id, { budgetType: "C", amount, target: cap, funded: "0", ...spec });

/** A Recurring budget and its fill-up goal (funding schedule mirrored onto the fill-up). */
function recurring(id: string, target: string, spec: { fund?: string; refresh?: string } = {}) {
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

const BOTH: ReadonlySet<EventKind> = new Set(["fund", "recur"]);
const FUND_ONLY: ReadonlySet<EventKind> = new Set(["fund"]);
const RECUR_ONLY: ReadonlySet<EventKind> = new Set(["recur"]);

const money = (value: Big) => value.toFixed(2);
const total = (budgets: FundingBudget[]) => budgets.reduce((sum, b) => sum.plus(b.balance), new Big(0));
const balances = (budgets: FundingBudget[]) =>
  Object.fromEntries(budgets.map((b) => [b.id, money(b.balance)]));
const transfersOf = (plan: FundingPlan) =>
  plan.transfers.map((t) => [t.date, t.sourceId, t.destinationId, money(t.amount)]);
type OccurrenceRow = [
  date: string,
  budgetId: string,
  kind: string,
  status: string,
  amount: string,
  moved: string,
];
const occurrencesOf = (plan: FundingPlan) =>
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
function run(
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
  for (const b of budgets) expect(money(replayed.get(b.id) ?? new Big(0))).toBe(money(b.balance));
  const dates = plan.transfers.map((t) => t.date);
  expect(dates).toEqual([...dates].sort());

  const again = planFunding({ ...input, open: [] });
  expect(again.transfers).toEqual([]);
  expect(again.changed).toEqual([]);
  expect(money(total(budgets))).toBe(money(sumBefore));
  return plan;
}

describe("planFunding: catch-up", () => {
  it("funds every missed weekly event of a Goal F over three months in one run", () => {
    const u = unallocated("1000");
    const goal = goalF("Holiday", "10", "1000");
    const plan = run([u, goal], "2027-03-31");

    expect(plan.transfers).toHaveLength(13);
    expect(plan.transfers.every((t) => t.sourceId === "Unallocated" && t.destinationId === "Holiday")).toBe(
      true,
    );
    expect(plan.transfers.map((t) => t.date)).toEqual([
      "2027-01-04",
      "2027-01-11",
      "2027-01-18",
      "2027-01-25",
      "2027-02-01",
      "2027-02-08",
      "2027-02-15",
      "2027-02-22",
      "2027-03-01",
      "2027-03-08",
      "2027-03-15",
      "2027-03-22",
      "2027-03-29",
    ]);
    expect(money(goal.balance)).toBe("130.00");
    expect(money(goal.fundedAmount)).toBe("130.00");
    expect(money(u.balance)).toBe("870.00");
    expect(money(u.fundedAmount)).toBe("0.00");
    expect(goal.processedThrough).toBe("2027-03-29");
    expect(goal.complete).toBe(false);
    expect(plan.occurrences).toHaveLength(13);
    expect(plan.occurrences.every((o) => o.status === "COMPLETE" && o.kind === "fund")).toBe(true);
    expect(plan.warnings).toEqual([]);
    expect(plan.skippedBudgets).toEqual([]);
    expect(new Set(plan.changed)).toEqual(new Set([u, goal]));
  });

  it("starts at schedulesFrom for a budget never run, and after the pointer otherwise", () => {
    const u = unallocated("1000");
    const young = goalF("Young", "10", "1000", { schedulesFrom: "2027-01-20" });
    const old = goalF("Old", "10", "1000", { processedThrough: "2027-01-11" });
    const plan = run([u, young, old], "2027-01-31");

    expect(transfersOf(plan)).toEqual([
      ["2027-01-18", "Unallocated", "Old", "10.00"],
      ["2027-01-25", "Unallocated", "Young", "10.00"],
      ["2027-01-25", "Unallocated", "Old", "10.00"],
    ]);
  });

  it("funds ties on one date in the order the budgets are listed", () => {
    const u = unallocated("15");
    const first = goalF("First", "10", "100");
    const second = goalF("Second", "10", "100");
    const plan = run([u, second, first], "2027-01-04");

    expect(transfersOf(plan)).toEqual([
      ["2027-01-04", "Unallocated", "Second", "10.00"],
      ["2027-01-04", "Unallocated", "First", "5.00"],
    ]);
  });
});

describe("planFunding: Goal D", () => {
  it("spreads what is missing equally over the fund events through the target date", () => {
    const u = unallocated("1000");
    const goal = goalD("Laptop", "100", "2027-01-25");
    const plan = run([u, goal], "2027-01-31");

    expect(transfersOf(plan)).toEqual([
      ["2027-01-04", "Unallocated", "Laptop", "25.00"],
      ["2027-01-11", "Unallocated", "Laptop", "25.00"],
      ["2027-01-18", "Unallocated", "Laptop", "25.00"],
      ["2027-01-25", "Unallocated", "Laptop", "25.00"],
    ]);
  });

  it("spreads 100 over three events as 33.33, 33.34, 33.33", () => {
    const u = unallocated("1000");
    const goal = goalD("Laptop", "100", "2027-01-18");
    const plan = run([u, goal], "2027-01-31");

    expect(plan.transfers.map((t) => money(t.amount))).toEqual(["33.33", "33.34", "33.33"]);
  });

  it("reaches exactly the target on the target date and then stops", () => {
    const u = unallocated("1000");
    const goal = goalD("Laptop", "100", "2027-01-18");
    const plan = run([u, goal], "2027-02-28");

    const last = plan.transfers[plan.transfers.length - 1];
    expect(last?.date).toBe("2027-01-18");
    expect(money(goal.balance)).toBe("100.00");
    expect(money(goal.fundedAmount)).toBe("100.00");
    expect(goal.complete).toBe(true);
    expect(money(u.balance)).toBe("900.00");
    expect(goal.processedThrough).toBe("2027-02-22");
  });

  it("spreads equally when the events come one run at a time", () => {
    const u = unallocated("1000");
    const goal = goalD("Laptop", "100", "2027-01-25");
    const amounts: string[] = [];
    for (const horizon of ["2027-01-04", "2027-01-11", "2027-01-18", "2027-01-25"])
      amounts.push(...run([u, goal], horizon).transfers.map((t) => money(t.amount)));

    expect(amounts).toEqual(["25.00", "25.00", "25.00", "25.00"]);
    expect(goal.complete).toBe(true);
  });

  it("asks for everything missing on an event after the target date", () => {
    const u = unallocated("1000");
    const goal = goalD("Laptop", "100", "2027-01-18", { balance: "40", processedThrough: "2027-01-18" });
    const plan = run([u, goal], "2027-01-25");

    expect(transfersOf(plan)).toEqual([["2027-01-25", "Unallocated", "Laptop", "60.00"]]);
    expect(goal.complete).toBe(true);
  });
});

describe("planFunding: Capped", () => {
  it("fills up to the cap, then refills after spending between two runs", () => {
    const u = unallocated("1000");
    const groceries = capped("Groceries", "40", "100");
    const first = run([u, groceries], "2027-01-25");

    expect(first.transfers.map((t) => money(t.amount))).toEqual(["40.00", "40.00", "20.00"]);
    expect(occurrencesOf(first).map(([date, , , status, amount]) => [date, status, amount])).toEqual([
      ["2027-01-04", "COMPLETE", "40.00"],
      ["2027-01-11", "COMPLETE", "40.00"],
      ["2027-01-18", "COMPLETE", "20.00"],
      ["2027-01-25", "COMPLETE", "0.00"],
    ]);
    expect(money(groceries.balance)).toBe("100.00");
    expect(groceries.processedThrough).toBe("2027-01-25");

    groceries.balance = groceries.balance.minus(70); // spent between the runs
    const second = run([u, groceries], "2027-02-15");

    expect(transfersOf(second)).toEqual([
      ["2027-02-01", "Unallocated", "Groceries", "40.00"],
      ["2027-02-08", "Unallocated", "Groceries", "30.00"],
    ]);
    expect(money(groceries.balance)).toBe("100.00");
    expect(money(u.balance)).toBe("830.00");
    expect(groceries.complete).toBe(false);
    expect(money(groceries.fundedAmount)).toBe("0.00");
    expect(groceries.processedThrough).toBe("2027-02-15");
  });
});

describe("planFunding: Recurring", () => {
  it("fills the fill-up in equal parts over the fund events before each refresh", () => {
    const u = unallocated("1000");
    const [rent, fillup] = recurring("Rent", "100");
    const plan = run([u, rent, fillup], "2027-01-31");

    expect(transfersOf(plan)).toEqual([
      ["2027-01-05", "Unallocated", "Rent Fill-up", "25.00"],
      ["2027-01-12", "Unallocated", "Rent Fill-up", "25.00"],
      ["2027-01-19", "Unallocated", "Rent Fill-up", "25.00"],
      ["2027-01-26", "Unallocated", "Rent Fill-up", "25.00"],
    ]);
    expect(money(fillup.balance)).toBe("100.00");
    expect(money(fillup.fundedAmount)).toBe("100.00");
    expect(money(rent.balance)).toBe("0.00");
    expect(rent.processedThrough).toBeNull();
  });

  it("fills the fill-up in equal parts when each fund event comes in its own run", () => {
    const u = unallocated("1000");
    const [rent, fillup] = recurring("Rent", "100");
    const amounts: string[] = [];
    for (const horizon of ["2027-01-05", "2027-01-12", "2027-01-19", "2027-01-26"])
      amounts.push(...run([u, rent, fillup], horizon).transfers.map((t) => money(t.amount)));

    expect(amounts).toEqual(["25.00", "25.00", "25.00", "25.00"]);
  });

  it("refreshes from the fill-up, completes R at its target, and resets complete at a refresh that falls short", () => {
    const u = unallocated("150");
    const [rent, fillup] = recurring("Rent", "100");
    const first = run([u, rent, fillup], "2027-02-01");

    expect(
      first.transfers.slice(-1).map((t) => [t.date, t.sourceId, t.destinationId, money(t.amount)]),
    ).toEqual([["2027-02-01", "Rent Fill-up", "Rent", "100.00"]]);
    expect(occurrencesOf(first).slice(-1)).toEqual([
      ["2027-02-01", "Rent", "recur", "COMPLETE", "100.00", "100.00"],
    ]);
    expect(balances([u, rent, fillup])).toEqual({
      Unallocated: "50.00",
      Rent: "100.00",
      "Rent Fill-up": "0.00",
    });
    expect(money(fillup.fundedAmount)).toBe("0.00");
    expect(money(rent.fundedAmount)).toBe("0.00");
    expect(rent.complete).toBe(true);
    expect(rent.processedThrough).toBe("2027-02-01");
    expect(fillup.processedThrough).toBe("2027-01-26");

    rent.balance = rent.balance.minus(100); // the rent is paid
    const second = run([u, rent, fillup], "2027-03-01");

    // The fill-up gets the 50 Unallocated still holds, then its events fall short: the refresh
    // moves the 50 it has.
    const funds = second.occurrences.filter((o) => o.kind === "fund");
    expect(funds.map((o) => o.scheduledDate)).toEqual([
      "2027-02-02",
      "2027-02-09",
      "2027-02-16",
      "2027-02-23",
    ]);
    expect(money(funds.reduce((sum, o) => sum.plus(o.movedAmount), new Big(0)))).toBe("50.00");
    expect(funds.slice(-1).map((o) => [o.status, money(o.amount), money(o.movedAmount)])).toEqual([
      ["PARTIAL", "50.00", "0.00"],
    ]);
    expect(occurrencesOf(second).slice(-1)).toEqual([
      ["2027-03-01", "Rent", "recur", "COMPLETE", "50.00", "50.00"],
    ]);
    expect(second.warnings.slice(-1)).toEqual([
      "Rent: the refresh of 2027-03-01 was 50.00 short; its fill-up held 50.00.",
    ]);
    expect(balances([u, rent, fillup])).toEqual({
      Unallocated: "0.00",
      Rent: "50.00",
      "Rent Fill-up": "0.00",
    });
    expect(rent.complete).toBe(false);
    expect(rent.processedThrough).toBe("2027-03-01");
  });

  it("keeps R complete at a refresh that brings it back to its target after spending", () => {
    const u = unallocated("1000");
    const [rent, fillup] = recurring("Rent", "100");
    run([u, rent, fillup], "2027-02-01");
    rent.balance = rent.balance.minus(30);
    const plan = run([u, rent, fillup], "2027-03-01");

    expect(money(plan.transfers.reduce((sum, t) => sum.plus(t.amount), new Big(0)))).toBe("130.00");
    expect(plan.transfers.slice(-1).map((t) => [t.sourceId, t.destinationId, money(t.amount)])).toEqual([
      ["Rent Fill-up", "Rent", "30.00"],
    ]);
    expect(balances([rent, fillup])).toEqual({ Rent: "100.00", "Rent Fill-up": "70.00" });
    expect(rent.complete).toBe(true);
    expect(plan.warnings).toEqual([]);
  });

  it("runs the fill-up's fund event before its parent's refresh on the same date, as the next cycle's", () => {
    const u = unallocated("1000");
    // Fund on Mondays, refresh on the 1st: 2027-02-01 is both. R is listed before its fill-up.
    const [rent, fillup] = recurring("Rent", "100", { fund: MONDAYS });
    run([u, rent, fillup], "2027-01-31");
    // 01-04, 01-11, 01-18 and 01-25 come before the refresh of 02-01: four parts.
    expect(money(fillup.balance)).toBe("100.00");
    fillup.balance = new Big(90); // 10 went elsewhere

    const plan = run([u, rent, fillup], "2027-02-01");

    expect(occurrencesOf(plan).map(([date, id, kind]) => [date, id, kind])).toEqual([
      ["2027-02-01", "Rent Fill-up", "fund"],
      ["2027-02-01", "Rent", "recur"],
    ]);
    // The 02-01 event works toward the refresh of 03-01: (100 − 90) ÷ 4 (02-01, 08, 15, 22); the
    // refresh of 02-01 that follows it takes it too.
    expect(transfersOf(plan)).toEqual([
      ["2027-02-01", "Unallocated", "Rent Fill-up", "2.50"],
      ["2027-02-01", "Rent Fill-up", "Rent", "92.50"],
    ]);
    expect(balances([rent, fillup])).toEqual({ Rent: "92.50", "Rent Fill-up": "0.00" });
    expect(rent.complete).toBe(false);
    expect(plan.warnings).toEqual([
      "Rent: the refresh of 2027-02-01 was 7.50 short; its fill-up held 92.50.",
    ]);
  });

  describe("the origin's worked examples: fund events before the refresh, not on it", () => {
    // The 15th and the last day of each month from May 15; a yearly refresh on Sep 15.
    const FIFTEENTH_AND_MONTH_END = "DTSTART:20270515\nRRULE:FREQ=MONTHLY;BYMONTHDAY=15,-1";
    const SEPTEMBER_15 = "DTSTART:20270915\nRRULE:FREQ=YEARLY";
    const fillupAmounts = (plan: FundingPlan) =>
      occurrencesOf(plan)
        .filter(([, id]) => id === "Tax Fill-up")
        .map(([date, , , , amount]) => [date, amount]);

    it("gives 3400.00 ÷ 8 = 425.00 on May 15 and 2975.00 ÷ 7 = 425.00 on May 31", () => {
      const u = unallocated("10000");
      const [tax, fillup] = recurring("Tax", "3400", {
        fund: FIFTEENTH_AND_MONTH_END,
        refresh: SEPTEMBER_15,
      });

      // Given the fund events before the Sep 15 refresh: May 15, May 31, Jun 15, Jun 30, Jul 15,
      // Jul 31, Aug 15 and Aug 31 (the Sep 15 event belongs to the next cycle).
      // When the first two run one at a time
      const may15 = run([u, tax, fillup], "2027-05-15");
      const may31 = run([u, tax, fillup], "2027-05-31");

      // Then each is an eighth, then a seventh of what is left
      expect(fillupAmounts(may15)).toEqual([["2027-05-15", "425.00"]]);
      expect(fillupAmounts(may31)).toEqual([["2027-05-31", "425.00"]]);
      expect(money(fillup.balance)).toBe("850.00");
    });

    it("fills the fill-up to exactly the target by the last event before the refresh", () => {
      const u = unallocated("10000");
      const [tax, fillup] = recurring("Tax", "3400", {
        fund: FIFTEENTH_AND_MONTH_END,
        refresh: SEPTEMBER_15,
      });

      const plan = run([u, tax, fillup], "2027-09-14");

      expect(fillupAmounts(plan).map(([, amount]) => amount)).toEqual(Array(8).fill("425.00"));
      expect(money(fillup.balance)).toBe("3400.00");
      expect(tax.processedThrough).toBeNull();
    });

    it("on the refresh day runs the fund event first toward the next refresh, then the refresh; then 23 events share the next cycle", () => {
      const u = unallocated("10000");
      const [tax, fillup] = recurring("Tax", "3400", {
        fund: FIFTEENTH_AND_MONTH_END,
        refresh: SEPTEMBER_15,
      });
      run([u, tax, fillup], "2027-09-14");

      // When the refresh day and the next fund event run
      const plan = run([u, tax, fillup], "2027-09-30");

      // Then Sep 15's event divides by the 24 events before the Sep 15, 2028 refresh, but the
      // fill-up is already full: it asks for nothing. The refresh moves the 3400.00, and the 23
      // events left (Sep 30 … Aug 31) share the next 3400.00: 147.83 each.
      expect(occurrencesOf(plan)).toEqual([
        ["2027-09-15", "Tax Fill-up", "fund", "COMPLETE", "0.00", "0.00"],
        ["2027-09-15", "Tax", "recur", "COMPLETE", "3400.00", "3400.00"],
        ["2027-09-30", "Tax Fill-up", "fund", "COMPLETE", "147.83", "147.83"],
      ]);
      expect(balances([tax, fillup])).toEqual({ Tax: "3400.00", "Tax Fill-up": "147.83" });
      expect(tax.complete).toBe(true);
      expect(plan.warnings).toEqual([]);
    });

    it("on the refresh day divides what the fill-up lacks by the next cycle's 24 events", () => {
      const u = unallocated("10000");
      const [tax, fillup] = recurring("Tax", "3400", {
        fund: FIFTEENTH_AND_MONTH_END,
        refresh: SEPTEMBER_15,
      });
      // Given a fill-up 240.00 short of its target after Aug 31
      fillup.balance = new Big("3160");
      fillup.fundedAmount = new Big("3160");
      fillup.processedThrough = "2027-08-31";

      const plan = run([u, tax, fillup], "2027-09-30");

      // Then Sep 15's event asks for 240.00 ÷ 24 = 10.00, the refresh takes the 3170.00 the fill-up
      // then holds (230.00 short), and Sep 30 starts the next cycle from empty: 3400.00 ÷ 23.
      expect(occurrencesOf(plan)).toEqual([
        ["2027-09-15", "Tax Fill-up", "fund", "COMPLETE", "10.00", "10.00"],
        ["2027-09-15", "Tax", "recur", "COMPLETE", "3170.00", "3170.00"],
        ["2027-09-30", "Tax Fill-up", "fund", "COMPLETE", "147.83", "147.83"],
      ]);
      expect(tax.complete).toBe(false);
      expect(plan.warnings).toEqual([
        "Tax: the refresh of 2027-09-15 was 230.00 short; its fill-up held 3170.00.",
      ]);
    });

    it("puts 100.00 ÷ 2 = 50.00 into the fill-up on Jan 1 for a monthly refresh from Mar 1", () => {
      const u = unallocated("1000");
      const [rent, fillup] = recurring("Rent", "100", {
        fund: "DTSTART:20270101\nRRULE:FREQ=MONTHLY",
        refresh: "DTSTART:20270301\nRRULE:FREQ=MONTHLY",
      });

      // Given the fund events before the Mar 1 refresh: Jan 1 and Feb 1
      const plan = run([u, rent, fillup], "2027-03-01");

      // Then each is half; Mar 1's event works toward Apr 1 and finds the fill-up full
      expect(occurrencesOf(plan)).toEqual([
        ["2027-01-01", "Rent Fill-up", "fund", "COMPLETE", "50.00", "50.00"],
        ["2027-02-01", "Rent Fill-up", "fund", "COMPLETE", "50.00", "50.00"],
        ["2027-03-01", "Rent Fill-up", "fund", "COMPLETE", "0.00", "0.00"],
        ["2027-03-01", "Rent", "recur", "COMPLETE", "100.00", "100.00"],
      ]);
      expect(balances([rent, fillup])).toEqual({ Rent: "100.00", "Rent Fill-up": "0.00" });
    });
  });

  it("warns when a refresh is short: the fill-up holds 60.00 of the 100.00 it should give", () => {
    const u = unallocated("1000");
    const [rent, fillup] = recurring("Rent", "100");
    // Given a fill-up holding 60.00 and no fund event left before the refresh of 02-01
    fillup.balance = new Big(60);
    fillup.fundedAmount = new Big(60);
    fillup.processedThrough = "2027-01-26";

    const plan = run([u, rent, fillup], "2027-02-01");

    // Then the refresh moves the 60.00, Rent is not complete, and the run says it was 40.00 short
    expect(transfersOf(plan)).toEqual([["2027-02-01", "Rent Fill-up", "Rent", "60.00"]]);
    expect(occurrencesOf(plan)).toEqual([["2027-02-01", "Rent", "recur", "COMPLETE", "60.00", "60.00"]]);
    expect(balances([rent, fillup])).toEqual({ Rent: "60.00", "Rent Fill-up": "0.00" });
    expect(rent.complete).toBe(false);
    expect(plan.warnings).toEqual([
      "Rent: the refresh of 2027-02-01 was 40.00 short; its fill-up held 60.00.",
    ]);
  });

  it("does not warn at a refresh when the budget already holds its target", () => {
    const u = unallocated("1000");
    const [rent, fillup] = recurring("Rent", "100", { fund: "DTSTART:20270301\nRRULE:FREQ=MONTHLY" });
    rent.balance = new Big(120);

    const plan = run([u, rent, fillup], "2027-02-01");

    expect(occurrencesOf(plan)).toEqual([["2027-02-01", "Rent", "recur", "COMPLETE", "0.00", "0.00"]]);
    expect(rent.complete).toBe(true);
    expect(plan.warnings).toEqual([]);
  });
});

describe("planFunding: PARTIAL and top-up", () => {
  it("moves what Unallocated holds, warns about the shortfall, and a later run tops it up", () => {
    const u = unallocated("20");
    const goal = goalF("Car", "50", "200");
    const first = run([u, goal], "2027-01-04");

    expect(transfersOf(first)).toEqual([["2027-01-04", "Unallocated", "Car", "20.00"]]);
    expect(occurrencesOf(first)).toEqual([["2027-01-04", "Car", "fund", "PARTIAL", "50.00", "20.00"]]);
    expect(first.warnings).toHaveLength(1);
    expect(first.warnings[0]).toContain("Car");
    expect(first.warnings[0]).toContain("2027-01-04");
    expect(first.warnings[0]).toContain("30.00 short");
    expect(first.warnings[0]).toContain("Unallocated held 20.00");
    expect(money(u.balance)).toBe("0.00");
    expect(goal.processedThrough).toBe("2027-01-04");

    u.balance = u.balance.plus(500); // income arrives
    const open: OpenOccurrence[] = [openOccurrence("Car", "2027-01-04", "50", "20")];
    const second = run([u, goal], "2027-01-11", { open });

    expect(transfersOf(second)).toEqual([
      ["2027-01-04", "Unallocated", "Car", "30.00"],
      ["2027-01-11", "Unallocated", "Car", "50.00"],
    ]);
    expect(second.occurrences[0]).toMatchObject({
      id: "occurrence-1",
      status: "COMPLETE",
      scheduledDate: "2027-01-04",
    });
    expect(money(second.occurrences[0]?.amount ?? new Big(-1))).toBe("50.00");
    expect(money(second.occurrences[0]?.movedAmount ?? new Big(-1))).toBe("50.00");
    expect(second.occurrences[1]).toMatchObject({
      id: undefined,
      status: "COMPLETE",
      scheduledDate: "2027-01-11",
    });
    expect(second.warnings).toEqual([]);
    expect(balances([u, goal])).toEqual({ Unallocated: "420.00", Car: "100.00" });
    expect(goal.processedThrough).toBe("2027-01-11");
  });

  it("stays PARTIAL, with what was moved added up, when the top-up is still short", () => {
    const u = unallocated("10");
    const goal = goalF("Car", "50", "200", { balance: "20", processedThrough: "2027-01-04" });
    const open: OpenOccurrence[] = [openOccurrence("Car", "2027-01-04", "50", "20")];
    const plan = run([u, goal], "2027-01-04", { open });

    expect(occurrencesOf(plan)).toEqual([["2027-01-04", "Car", "fund", "PARTIAL", "50.00", "30.00"]]);
    expect(plan.warnings[0]).toContain("20.00 short");
  });

  it("tops up an open occurrence before a new event of another budget on the same date", () => {
    const u = unallocated("30");
    const car = goalF("Car", "50", "200", { balance: "20", processedThrough: "2027-01-04" });
    const bike = goalF("Bike", "50", "200");
    const open: OpenOccurrence[] = [openOccurrence("Car", "2027-01-04", "50", "20")];
    const plan = run([u, bike, car], "2027-01-04", { open });

    expect(occurrencesOf(plan)).toEqual([
      ["2027-01-04", "Car", "fund", "COMPLETE", "50.00", "50.00"],
      ["2027-01-04", "Bike", "fund", "PARTIAL", "50.00", "0.00"],
    ]);
  });

  it("moves nothing from a negative Unallocated and reports it as holding nothing", () => {
    const u = unallocated("-25");
    const goal = goalF("Car", "50", "200");
    const plan = run([u, goal], "2027-01-04");

    expect(plan.transfers).toEqual([]);
    expect(occurrencesOf(plan)).toEqual([["2027-01-04", "Car", "fund", "PARTIAL", "50.00", "0.00"]]);
    expect(plan.warnings[0]).toContain("50.00 short");
    expect(plan.warnings[0]).toContain("Unallocated held 0.00");
    expect(money(u.balance)).toBe("-25.00");
  });
});

describe("planFunding: budgets that are not funded", () => {
  it("records SKIPPED occurrences for a paused budget and leaves its pointer", () => {
    const u = unallocated("1000");
    const goal = goalF("Paused goal", "10", "1000", { paused: true, processedThrough: "2027-01-04" });
    const plan = run([u, goal], "2027-01-25");

    expect(plan.transfers).toEqual([]);
    expect(occurrencesOf(plan)).toEqual([
      ["2027-01-11", "Paused goal", "fund", "SKIPPED", "0.00", "0.00"],
      ["2027-01-18", "Paused goal", "fund", "SKIPPED", "0.00", "0.00"],
      ["2027-01-25", "Paused goal", "fund", "SKIPPED", "0.00", "0.00"],
    ]);
    expect(plan.skippedBudgets).toEqual(["Paused goal"]);
    expect(goal.processedThrough).toBe("2027-01-04");
    expect(plan.changed).toEqual([]);
    expect(plan.warnings).toEqual([]);
    expect(money(u.balance)).toBe("1000.00");
  });

  it("skips a paused Recurring budget and its fill-up under the parent's name, and funds the others", () => {
    const u = unallocated("1000");
    const [rent, fillup] = recurring("Rent", "100");
    rent.paused = true;
    const goal = goalF("Car", "10", "1000");
    const plan = run([u, rent, fillup, goal], "2027-02-01");

    expect(plan.skippedBudgets).toEqual(["Rent"]);
    const skipped = plan.occurrences.filter((o) => o.status === "SKIPPED");
    expect(skipped.map((o) => [o.scheduledDate, o.budgetId, o.kind])).toEqual([
      ["2027-02-01", "Rent", "recur"],
      ["2027-01-05", "Rent Fill-up", "fund"],
      ["2027-01-12", "Rent Fill-up", "fund"],
      ["2027-01-19", "Rent Fill-up", "fund"],
      ["2027-01-26", "Rent Fill-up", "fund"],
    ]);
    expect(plan.transfers.every((t) => t.destinationId === "Car")).toBe(true);
    expect(plan.transfers).toHaveLength(5);
    expect(rent.processedThrough).toBeNull();
    expect(fillup.processedThrough).toBeNull();
  });

  it("does not top up an open occurrence of a paused budget", () => {
    const u = unallocated("1000");
    const goal = goalF("Car", "50", "200", { balance: "20", paused: true, processedThrough: "2027-01-04" });
    const open: OpenOccurrence[] = [openOccurrence("Car", "2027-01-04", "50", "20")];
    const plan = run([u, goal], "2027-01-04", { open });

    expect(plan.transfers).toEqual([]);
    expect(plan.occurrences).toEqual([]);
  });

  it.each([
    ["an archived Goal", goalF("Done", "10", "1000", { archived: true })],
    ["an archived Capped budget", capped("Done", "10", "1000", { archived: true })],
    ["a complete Goal", goalF("Done", "10", "100", { balance: "100", complete: true })],
    [
      "a complete Goal spent below its target",
      goalF("Done", "10", "100", { balance: "40", funded: "100", complete: true }),
    ],
  ])("does not fund %s, nor move its pointer", (_, retired) => {
    const u = unallocated("1000");
    const plan = run([u, retired], "2027-01-31");

    expect(plan.transfers).toEqual([]);
    expect(plan.occurrences).toEqual([]);
    expect(plan.changed).toEqual([]);
    expect(retired.processedThrough).toBeNull();
  });

  it("does not fund the fill-up of an archived Recurring budget", () => {
    const u = unallocated("1000");
    const [rent, fillup] = recurring("Rent", "100");
    rent.archived = true;
    const plan = run([u, rent, fillup], "2027-03-01");

    expect(plan.transfers).toEqual([]);
    expect(plan.occurrences).toEqual([]);
  });

  it("stops funding a Goal that completes mid-run, and moves its pointer past the rest", () => {
    const u = unallocated("1000");
    const goal = goalF("Car", "40", "100");
    const plan = run([u, goal], "2027-02-01");

    expect(plan.transfers.map((t) => [t.date, money(t.amount)])).toEqual([
      ["2027-01-04", "40.00"],
      ["2027-01-11", "40.00"],
      ["2027-01-18", "20.00"],
    ]);
    expect(plan.occurrences).toHaveLength(3);
    expect(goal.complete).toBe(true);
    expect(money(goal.balance)).toBe("100.00");
    expect(goal.processedThrough).toBe("2027-02-01");
  });

  it("does not fund the Unallocated budget itself", () => {
    const u = unallocated("1000");
    u.fundingSchedule = MONDAYS;
    const plan = run([u], "2027-01-31");

    expect(plan.transfers).toEqual([]);
    expect(plan.occurrences).toEqual([]);
  });

  it("plans nothing for an account without an Unallocated budget", () => {
    const plan = planFunding({
      budgets: [goalF("Car", "10", "100")],
      open: [],
      horizon: "2027-01-31",
      kinds: BOTH,
    });
    expect(plan).toEqual({ transfers: [], occurrences: [], changed: [], warnings: [], skippedBudgets: [] });
  });
});

describe("planFunding: horizon and kinds", () => {
  it("leaves events after the horizon for a later run", () => {
    const u = unallocated("1000");
    const goal = goalF("Car", "10", "1000");
    const plan = run([u, goal], "2027-01-17");

    expect(plan.transfers.map((t) => t.date)).toEqual(["2027-01-04", "2027-01-11"]);
    expect(goal.processedThrough).toBe("2027-01-11");

    const later = run([u, goal], "2027-01-18");
    expect(later.transfers.map((t) => t.date)).toEqual(["2027-01-18"]);
  });

  it("runs fund events only: no refresh, R's pointer stays", () => {
    const u = unallocated("1000");
    const [rent, fillup] = recurring("Rent", "100");
    const goal = goalF("Car", "10", "1000");
    const plan = run([u, rent, fillup, goal], "2027-02-10", { kinds: FUND_ONLY });

    expect(plan.occurrences.every((o) => o.kind === "fund")).toBe(true);
    expect(plan.transfers.some((t) => t.destinationId === "Rent")).toBe(false);
    expect(plan.transfers.filter((t) => t.destinationId === "Car").map((t) => t.date)).toEqual([
      "2027-01-04",
      "2027-01-11",
      "2027-01-18",
      "2027-01-25",
      "2027-02-01",
      "2027-02-08",
    ]);
    // The fill-up is full after 01-26: its events of 02-02 and 02-09 ask for nothing.
    expect(plan.transfers.filter((t) => t.destinationId === "Rent Fill-up").map((t) => t.date)).toEqual([
      "2027-01-05",
      "2027-01-12",
      "2027-01-19",
      "2027-01-26",
    ]);
    expect(
      occurrencesOf(plan)
        .filter(([date, id]) => id === "Rent Fill-up" && date > "2027-02-01")
        .map(([date, , , status, amount]) => [date, status, amount]),
    ).toEqual([
      ["2027-02-02", "COMPLETE", "0.00"],
      ["2027-02-09", "COMPLETE", "0.00"],
    ]);
    expect(rent.processedThrough).toBeNull();
    expect(fillup.processedThrough).toBe("2027-02-09");
    expect(money(rent.balance)).toBe("0.00");
    // The fill-up stays at its target: the refresh it worked toward has not run.
    expect(money(fillup.balance)).toBe("100.00");
  });

  it("runs recur events only: funds the fill-up through the refresh date, not later, and no other budget", () => {
    const u = unallocated("1000");
    const [rent, fillup] = recurring("Rent", "100");
    const goal = goalF("Car", "10", "1000");
    const plan = run([u, rent, fillup, goal], "2027-02-10", { kinds: RECUR_ONLY });

    expect(plan.transfers.some((t) => t.destinationId === "Car")).toBe(false);
    expect(goal.processedThrough).toBeNull();
    expect(occurrencesOf(plan).map(([date, id, kind]) => [date, id, kind])).toEqual([
      ["2027-01-05", "Rent Fill-up", "fund"],
      ["2027-01-12", "Rent Fill-up", "fund"],
      ["2027-01-19", "Rent Fill-up", "fund"],
      ["2027-01-26", "Rent Fill-up", "fund"],
      ["2027-02-01", "Rent", "recur"],
    ]);
    expect(fillup.processedThrough).toBe("2027-01-26");
    expect(rent.processedThrough).toBe("2027-02-01");
    expect(balances([rent, fillup])).toEqual({ Rent: "100.00", "Rent Fill-up": "0.00" });

    // The evening's fund run then takes the fill-up's later events and the Goal's.
    const evening = run([u, rent, fillup, goal], "2027-02-10", { kinds: FUND_ONLY });
    expect(evening.transfers.filter((t) => t.destinationId === "Rent Fill-up").map((t) => t.date)).toEqual([
      "2027-02-02",
      "2027-02-09",
    ]);
    expect(evening.transfers.filter((t) => t.destinationId === "Car")).toHaveLength(6);
  });

  it("runs recur events only before any refresh is due: nothing at all", () => {
    const u = unallocated("1000");
    const [rent, fillup] = recurring("Rent", "100");
    const plan = run([u, rent, fillup], "2027-01-31", { kinds: RECUR_ONLY });

    expect(plan.transfers).toEqual([]);
    expect(plan.occurrences).toEqual([]);
    expect(fillup.processedThrough).toBeNull();
  });

  it("tops up an open fill-up occurrence in a recur-only run when it is dated through the refresh", () => {
    const u = unallocated("1000");
    const [rent, fillup] = recurring("Rent", "100");
    fillup.balance = new Big(75);
    fillup.fundedAmount = new Big(75);
    fillup.processedThrough = "2027-01-26";
    const open: OpenOccurrence[] = [
      {
        id: "occurrence-1",
        budgetId: fillup.id,
        scheduledDate: "2027-01-26",
        amount: new Big(25),
        movedAmount: new Big(5),
      },
    ];
    const plan = run([u, rent, fillup], "2027-02-01", { open, kinds: RECUR_ONLY });

    expect(transfersOf(plan)).toEqual([
      ["2027-01-26", "Unallocated", "Rent Fill-up", "20.00"],
      ["2027-02-01", "Rent Fill-up", "Rent", "95.00"],
    ]);
  });
});
