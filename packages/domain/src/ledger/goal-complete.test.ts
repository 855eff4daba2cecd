import type { BudgetType } from "@allot/contract/budgets/budget-kinds";
import Big from "big.js";
import { describe, expect, it } from "vitest";
import { type GoalProgress, latchedComplete } from "./goal-complete";

type Spec = Partial<{
  budgetType: BudgetType;
  isUnallocated: boolean;
  target: string;
  funded: string;
  complete: boolean;
}>;

const budget = (spec: Spec): GoalProgress => ({
  budgetType: spec.budgetType ?? "G",
  isUnallocated: spec.isUnallocated ?? false,
  targetBalance: new Big(spec.target ?? "100"),
  fundedAmount: new Big(spec.funded ?? "0"),
  complete: spec.complete ?? false,
});

describe("latchedComplete (a Goal latches complete once funded up to its target)", () => {
  it.each<{ given: string; spec: Spec; complete: boolean }>([
    { given: "a Goal funded short of its target", spec: { funded: "99.99" }, complete: false },
    { given: "a Goal funded exactly to its target", spec: { funded: "100" }, complete: true },
    { given: "a Goal funded past its target", spec: { funded: "130" }, complete: true },
    {
      given: "a complete Goal funded below its target again",
      spec: { funded: "20", complete: true },
      complete: true,
    },
    { given: "a Goal with a zero target", spec: { target: "0", funded: "0" }, complete: false },
    {
      given: "Unallocated at its target",
      spec: { isUnallocated: true, target: "10", funded: "10" },
      complete: false,
    },
    { given: "a fill-up goal at its target", spec: { budgetType: "A", funded: "100" }, complete: false },
    { given: "a Capped budget at its cap", spec: { budgetType: "C", funded: "100" }, complete: false },
    {
      given: "a Recurring budget complete since its refresh",
      spec: { budgetType: "R", complete: true },
      complete: true,
    },
  ])("given $given, when its funded amount changes, then complete is $complete", ({ spec, complete }) => {
    expect(latchedComplete(budget(spec))).toBe(complete);
  });
});
