import Big from "big.js";
import { describe, expect, it } from "vitest";
import { planSplit, splitProblem } from "./split-plan";

const U = "unallocated";
const amounts = (entries: [string, string][]) => new Map(entries.map(([k, v]) => [k, new Big(v)]));
const deltas = (map: Map<string, Big>) => Object.fromEntries([...map].map(([k, v]) => [k, v.toFixed(2)]));

describe("splitProblem", () => {
  it.each([
    ["-10", [["a", "10"]], null],
    ["-10", [["a", "10.01"]], "more than"],
    [
      "10",
      [
        ["a", "4"],
        ["b", "6"],
      ],
      null,
    ],
  ] as const)("amount %s with %j", (amount, entries, expected) => {
    const problem = splitProblem(new Big(amount), amounts(entries as unknown as [string, string][]));
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toContain(expected);
  });
});

describe("planSplit", () => {
  it("updates kept allocations, deletes dropped ones, inserts new ones and sends the rest to Unallocated", () => {
    const plan = planSplit(
      new Big("-100"),
      U,
      amounts([
        ["a", "30"],
        ["c", "20"],
      ]),
      [
        { id: "1", budgetId: U, amount: "-40" },
        { id: "2", budgetId: "a", amount: "-50" },
        { id: "3", budgetId: "b", amount: "-10" },
      ],
    );
    expect(plan.updates.map((u) => [u.id, u.amount.toFixed(2)])).toEqual([
      ["1", "-50.00"],
      ["2", "-30.00"],
    ]);
    expect(plan.deletes).toEqual(["3"]);
    expect(plan.inserts.map((i) => [i.budgetId, i.amount.toFixed(2)])).toEqual([["c", "-20.00"]]);
    expect(deltas(plan.deltas)).toEqual({ [U]: "-10.00", a: "20.00", b: "10.00", c: "-20.00" });
  });

  it("drops the Unallocated allocation when nothing remains and merges duplicates", () => {
    const plan = planSplit(new Big("25"), U, amounts([["a", "25"]]), [
      { id: "1", budgetId: U, amount: "20" },
      { id: "2", budgetId: U, amount: "5" },
    ]);
    expect(plan.deletes).toEqual(["1", "2"]);
    expect(plan.inserts.map((i) => [i.budgetId, i.amount.toFixed(2)])).toEqual([["a", "25.00"]]);
    expect(deltas(plan.deltas)).toEqual({ [U]: "-25.00", a: "25.00" });
  });

  it("moves everything back to Unallocated for an empty split", () => {
    const plan = planSplit(new Big("-8"), U, new Map(), [{ id: "1", budgetId: "a", amount: "-8" }]);
    expect(plan.deletes).toEqual(["1"]);
    expect(plan.inserts.map((i) => [i.budgetId, i.amount.toFixed(2)])).toEqual([[U, "-8.00"]]);
  });

  it("keeps a zero Unallocated allocation for a zero-amount transaction split with nothing", () => {
    const plan = planSplit(new Big("0"), U, new Map(), [{ id: "1", budgetId: U, amount: "0" }]);
    expect(plan).toMatchObject({ updates: [], inserts: [], deletes: [] });
    expect(plan.deltas.size).toBe(0);
    const moved = planSplit(new Big("0"), U, new Map(), [{ id: "1", budgetId: "a", amount: "0" }]);
    expect(moved.deletes).toEqual(["1"]);
    expect(moved.inserts.map((i) => [i.budgetId, i.amount.toFixed(2)])).toEqual([[U, "0.00"]]);
  });
});
