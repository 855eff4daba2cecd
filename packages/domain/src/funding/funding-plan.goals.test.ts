import { describe, expect, it } from "vitest";
import {
  capped,
  goalD,
  money,
  occurrencesOf,
  run,
  transfersOf,
  unallocated,
} from "../../test/testing/funding-plan-test-kit";

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
