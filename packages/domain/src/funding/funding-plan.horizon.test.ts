import Big from "big.js";
import { describe, expect, it } from "vitest";
import {
  balances,
  FUND_ONLY,
  goalF,
  money,
  occurrencesOf,
  RECUR_ONLY,
  recurring,
  run,
  transfersOf,
  unallocated,
} from "../../test/testing/funding-plan-test-kit";
import type { OpenOccurrence } from "./funding-plan";

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
