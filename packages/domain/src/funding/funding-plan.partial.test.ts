import Big from "big.js";
import { describe, expect, it } from "vitest";
import {
  balances,
  goalF,
  money,
  occurrencesOf,
  run,
  transfersOf,
  unallocated,
} from "../../test/testing/funding-plan-test-kit";
import { openOccurrence } from "../../test/testing/funding-test-budgets";
import type { OpenOccurrence } from "./funding-plan";

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
