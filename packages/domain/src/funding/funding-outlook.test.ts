import { describe, expect, it } from "vitest";
import { type BudgetSpec, budget, openOccurrence } from "../../test/testing/funding-test-budgets";
import type { FundingBudget } from "./funding-budget";
import { fundingOutlook } from "./funding-outlook";
import type { OpenOccurrence } from "./funding-plan";

// 2027-01-04 is a Monday; 2027-05-17 is the 20th Monday from it.
const TUESDAYS = "DTSTART:20270105\nRRULE:FREQ=WEEKLY";
const FIRST_OF_MONTH = "DTSTART:20270201\nRRULE:FREQ=MONTHLY";
const TODAY = "2027-01-01";

const goalF = (spec: BudgetSpec = {}) => budget("Holiday", { amount: "25", target: "1000", ...spec });
const goalD = (spec: BudgetSpec = {}) =>
  budget("Laptop", { fundingType: "D", target: "100", targetDate: "2027-01-25", ...spec });
const capped = (spec: BudgetSpec = {}) =>
  budget("Groceries", { budgetType: "C", amount: "40", target: "100", funded: "0", ...spec });
const recurringBudget = (spec: BudgetSpec = {}) =>
  budget("Rent", {
    budgetType: "R",
    fundingType: "D",
    target: "100",
    funded: "0",
    fundingSchedule: TUESDAYS,
    recurrenceSchedule: FIRST_OF_MONTH,
    fillupGoalId: "Rent Fill-up",
    ...spec,
  });
const fillupGoal = (spec: BudgetSpec = {}) =>
  budget("Rent Fill-up", {
    budgetType: "A",
    fundingType: "D",
    target: "100",
    fundingSchedule: TUESDAYS,
    ...spec,
  });
const unallocated = () =>
  budget("Unallocated", { isUnallocated: true, balance: "500", funded: "0", fundingSchedule: "" });

const nextFundingOf = (...args: Parameters<typeof fundingOutlook>) => {
  const next = fundingOutlook(...args).nextFunding;
  return next && { date: next.date, amount: next.amount.toFixed(2) };
};

describe("fundingOutlook: next_funding", () => {
  it.each<[string, FundingBudget, { parent?: FundingBudget; open?: OpenOccurrence }]>([
    ["a paused Goal", goalF({ paused: true }), {}],
    ["an archived Goal", goalF({ archived: true }), {}],
    ["a complete Goal", goalF({ balance: "1000", complete: true }), {}],
    ["a complete Goal spent below its target", goalF({ balance: "200", funded: "1000", complete: true }), {}],
    ["a Recurring budget (its fill-up carries it)", recurringBudget(), {}],
    ["a Capped budget at its cap (zero amount)", capped({ balance: "100" }), {}],
    ["a Capped budget above its cap (zero amount)", capped({ balance: "130" }), {}],
    ["a Goal F with a zero funding amount", goalF({ amount: "0" }), {}],
    ["a Goal funded to its target but not latched (zero amount)", goalF({ balance: "1000" }), {}],
    ["the Unallocated budget", unallocated(), {}],
    ["a budget without a funding schedule", goalF({ fundingSchedule: "" }), {}],
    [
      "a fill-up whose Recurring budget is paused",
      fillupGoal(),
      { parent: recurringBudget({ paused: true }) },
    ],
    [
      "a fill-up whose Recurring budget is archived",
      fillupGoal(),
      { parent: recurringBudget({ archived: true }) },
    ],
    ["a full fill-up", fillupGoal({ balance: "100" }), { parent: recurringBudget() }],
    [
      "a paused Goal with an open partial occurrence",
      goalF({ paused: true, processedThrough: "2027-01-04" }),
      { open: openOccurrence("Holiday", "2027-01-04", "25", "10") },
    ],
    [
      "an open partial occurrence with no headroom left",
      capped({ balance: "100", processedThrough: "2027-01-04" }),
      { open: openOccurrence("Groceries", "2027-01-04", "40", "10") },
    ],
  ])("is null for %s", (_, subject, related) => {
    expect(fundingOutlook(subject, TODAY, related).nextFunding).toBeNull();
  });

  it.each<[string, FundingBudget, { parent?: FundingBudget; open?: OpenOccurrence }, string, string]>([
    ["a Goal F: its first event and fixed amount", goalF(), {}, "2027-01-04", "25.00"],
    [
      "a Goal F: the event after its pointer",
      goalF({ balance: "50", processedThrough: "2027-01-11" }),
      {},
      "2027-01-18",
      "25.00",
    ],
    [
      "a Goal F near its target: what it lacks",
      goalF({ balance: "990", processedThrough: "2027-01-11" }),
      {},
      "2027-01-18",
      "10.00",
    ],
    [
      "a Goal F not yet begun: its first event from schedulesFrom",
      goalF({ schedulesFrom: "2027-01-12" }),
      {},
      "2027-01-18",
      "25.00",
    ],
    ["a Goal D: the target over its four events", goalD(), {}, "2027-01-04", "25.00"],
    [
      "a Goal D halfway: what is missing over the two left",
      goalD({ balance: "50", processedThrough: "2027-01-11" }),
      {},
      "2027-01-18",
      "25.00",
    ],
    [
      "a Goal D behind: what is missing over the two left",
      goalD({ balance: "40", processedThrough: "2027-01-11" }),
      {},
      "2027-01-18",
      "30.00",
    ],
    ["a Goal D over three events, rounded", goalD({ targetDate: "2027-01-18" }), {}, "2027-01-04", "33.33"],
    [
      "a Goal D past its target date: everything missing",
      goalD({ balance: "70", processedThrough: "2027-01-25" }),
      {},
      "2027-02-01",
      "30.00",
    ],
    ["a Capped budget after spending", capped({ balance: "75" }), {}, "2027-01-04", "25.00"],
    [
      "a fill-up: the target over the fund events before the refresh",
      fillupGoal(),
      { parent: recurringBudget() },
      "2027-01-05",
      "25.00",
    ],
    [
      "a fill-up partly filled: what it lacks over the events left",
      fillupGoal({ balance: "40", processedThrough: "2027-01-12" }),
      { parent: recurringBudget() },
      "2027-01-19",
      "30.00",
    ],
    [
      "a fill-up after a refresh: toward the next one",
      fillupGoal({ processedThrough: "2027-01-26" }),
      { parent: recurringBudget({ processedThrough: "2027-02-01" }) },
      "2027-02-02",
      "25.00",
    ],
    [
      // 2027-06-01 is a Tuesday: its event works toward 07-01 (five Tuesdays from 06-01).
      "a fill-up event on a refresh day: toward the refresh after it",
      fillupGoal({ balance: "75", processedThrough: "2027-05-25" }),
      { parent: recurringBudget({ processedThrough: "2027-05-01" }) },
      "2027-06-01",
      "5.00",
    ],
    [
      "an open partial occurrence: what it still lacks, on its date",
      goalF({ amount: "50", target: "200", balance: "20", processedThrough: "2027-01-04" }),
      { open: openOccurrence("Holiday", "2027-01-04", "50", "20") },
      "2027-01-04",
      "30.00",
    ],
    [
      "an open partial occurrence bounded by what the Goal still lacks",
      goalF({ amount: "50", target: "100", balance: "90", processedThrough: "2027-01-04" }),
      { open: openOccurrence("Holiday", "2027-01-04", "50", "20") },
      "2027-01-04",
      "10.00",
    ],
    [
      "an open partial occurrence of a fill-up",
      fillupGoal({ balance: "60", processedThrough: "2027-01-19" }),
      { parent: recurringBudget(), open: openOccurrence("Rent Fill-up", "2027-01-19", "25", "5") },
      "2027-01-19",
      "20.00",
    ],
  ])("for %s", (_, subject, related, date, amount) => {
    expect(nextFundingOf(subject, TODAY, related)).toEqual({ date, amount });
  });

  it("does not change the budget it reads", () => {
    const goal = goalD({ balance: "40", processedThrough: "2027-01-11" });
    fundingOutlook(goal, TODAY);
    expect(goal.balance.toFixed(2)).toBe("40.00");
    expect(goal.processedThrough).toBe("2027-01-11");
  });
});

describe("fundingOutlook: next_recurrence", () => {
  it.each<[string, FundingBudget, string | null]>([
    ["a Recurring budget: its first refresh", recurringBudget(), "2027-02-01"],
    [
      "a Recurring budget after a refresh: the next one",
      recurringBudget({ processedThrough: "2027-02-01" }),
      "2027-03-01",
    ],
    [
      "a complete Recurring budget: still its next refresh",
      recurringBudget({ balance: "100", complete: true, processedThrough: "2027-02-01" }),
      "2027-03-01",
    ],
    ["a paused Recurring budget", recurringBudget({ paused: true }), null],
    ["an archived Recurring budget", recurringBudget({ archived: true }), null],
    ["a Goal", goalF(), null],
    ["a Capped budget", capped(), null],
    ["a fill-up goal", fillupGoal(), null],
    ["the Unallocated budget", unallocated(), null],
  ])("%s → %s", (_, subject, expected) => {
    expect(fundingOutlook(subject, TODAY).nextRecurrence).toBe(expected);
  });

  it("gives a Recurring budget no next_funding of its own", () => {
    expect(fundingOutlook(recurringBudget(), TODAY)).toMatchObject({ nextFunding: null, fundingPace: null });
  });
});

describe("fundingOutlook: funding_pace", () => {
  // Twenty Monday fund events from 2027-01-04 through the target date 2027-05-17; by 2027-01-31
  // four of them (20%) have passed.
  const paced = (funded: string, spec: BudgetSpec = {}) =>
    budget("Car", { fundingType: "D", target: "1000", targetDate: "2027-05-17", balance: funded, ...spec });

  it.each([
    ["well ahead", "400", "2027-01-31", "ahead"],
    ["just over 5 points ahead", "250.01", "2027-01-31", "ahead"],
    ["exactly 5 points ahead", "250", "2027-01-31", "on_track"],
    ["exactly on schedule", "200", "2027-01-31", "on_track"],
    ["exactly 5 points behind", "150", "2027-01-31", "on_track"],
    ["just over 5 points behind", "149.99", "2027-01-31", "behind"],
    ["well behind", "0", "2027-01-31", "behind"],
    ["before the first event, nothing funded", "0", "2027-01-02", "on_track"],
    ["counting an event on today as elapsed", "110", "2027-01-11", "on_track"],
    ["on the target date, short", "900", "2027-05-17", "behind"],
    ["on the target date, within 5 points", "960", "2027-05-17", "on_track"],
    ["past the target date and short", "999.99", "2027-05-18", "behind"],
    ["long past the target date and short", "500", "2028-01-01", "behind"],
    ["past the target date and reached", "1000", "2027-05-18", "on_track"],
    ["on the target date and reached", "1000", "2027-05-17", "on_track"],
  ])("%s (funded %s on %s) → %s", (_, funded, today, expected) => {
    expect(fundingOutlook(paced(funded), today).fundingPace).toBe(expected);
  });

  it("measures elapsed events from schedulesFrom, not from the pointer", () => {
    const subject = paced("200", { processedThrough: "2027-01-25" });
    expect(fundingOutlook(subject, "2027-01-31").fundingPace).toBe("on_track");
  });

  it("reads funded_amount, not the balance, for the funded share", () => {
    const spent = paced("0", { funded: "200" });
    expect(fundingOutlook(spent, "2027-01-31").fundingPace).toBe("on_track");
  });

  it.each<[string, FundingBudget]>([
    ["a Goal F", goalF()],
    ["a Capped budget", capped()],
    ["a Recurring budget", recurringBudget()],
    ["a fill-up goal", fillupGoal()],
    ["the Unallocated budget", unallocated()],
    ["an archived Goal D", paced("200", { archived: true })],
    ["a Goal D without a target date", paced("200", { targetDate: null })],
  ])("is null for %s", (_, subject) => {
    expect(fundingOutlook(subject, "2027-01-31").fundingPace).toBeNull();
  });
});
