import { describe, expect, it } from "vitest";
import {
  BOTH,
  capped,
  goalF,
  money,
  occurrencesOf,
  recurring,
  run,
  unallocated,
} from "../../test/testing/funding-plan-test-kit";
import { MONDAYS, openOccurrence } from "../../test/testing/funding-test-budgets";
import { type OpenOccurrence, planFunding } from "./funding-plan";

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
    // In date order, among the others: a forecast lists them where they fall.
    expect(skipped.map((o) => [o.scheduledDate, o.budgetId, o.kind])).toEqual([
      ["2027-01-05", "Rent Fill-up", "fund"],
      ["2027-01-12", "Rent Fill-up", "fund"],
      ["2027-01-19", "Rent Fill-up", "fund"],
      ["2027-01-26", "Rent Fill-up", "fund"],
      ["2027-02-01", "Rent", "recur"],
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
    expect(plan).toEqual({
      transfers: [],
      occurrences: [],
      changed: [],
      warnings: [],
      skippedBudgets: [],
      steps: [],
      completions: [],
    });
  });
});
