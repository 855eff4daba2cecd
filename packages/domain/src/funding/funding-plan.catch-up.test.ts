import { describe, expect, it } from "vitest";
import { goalF, money, run, transfersOf, unallocated } from "../../test/testing/funding-plan-test-kit";

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
