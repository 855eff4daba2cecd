import Big from "big.js";
import { describe, expect, it } from "vitest";
import {
  balances,
  money,
  occurrencesOf,
  recurring,
  run,
  transfersOf,
  unallocated,
} from "../../test/testing/funding-plan-test-kit";
import { MONDAYS } from "../../test/testing/funding-test-budgets";
import type { FundingPlan } from "./funding-plan";

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
