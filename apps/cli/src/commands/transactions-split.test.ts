import { describe, expect, it } from "vitest";
import { UsageError } from "../output";
import { parseSplitPairs } from "./transactions-split";

describe("parseSplitPairs", () => {
  it.each([
    [[], []],
    [["groceries=60"], [{ budget: "groceries", amount: "60" }]],
    [
      ["Groceries=60.5", "rent=20.25"],
      [
        { budget: "Groceries", amount: "60.5" },
        { budget: "rent", amount: "20.25" },
      ],
    ],
    [[" eating out = 12.50 "], [{ budget: "eating out", amount: "12.50" }]],
    [["a=b=3"], [{ budget: "a=b", amount: "3" }]],
    [
      ["7f0c2a4e-0000-4000-8000-000000000001=0.01"],
      [{ budget: "7f0c2a4e-0000-4000-8000-000000000001", amount: "0.01" }],
    ],
  ])("reads %j", (words, pairs) => {
    expect(parseSplitPairs(words)).toEqual(pairs);
  });

  it.each([
    ["groceries", "'groceries' is not a BUDGET=AMOUNT pair"],
    ["=60", "'=60' is not a BUDGET=AMOUNT pair"],
    ["groceries=", "'groceries=' is not a BUDGET=AMOUNT pair"],
    ["groceries=-60", "'groceries=-60': the amount must be positive"],
    ["groceries=0", "'groceries=0': the amount must be positive"],
    ["groceries=0.00", "'groceries=0.00': the amount must be positive"],
    ["groceries=1.234", "'groceries=1.234': the amount must be positive, up to 2 decimals"],
    ["groceries=1e3", "'groceries=1e3': the amount must be positive"],
    ["groceries=1234567890123", "'groceries=1234567890123': the amount must be positive"],
  ])("refuses %j", (word, message) => {
    const attempt = () => parseSplitPairs(["rent=20", word]);
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(message);
  });

  it("refuses a budget named twice, in any case or spacing", () => {
    expect(() => parseSplitPairs(["Eating Out=5", "eating  out=6"])).toThrow(
      "'eating  out' is named twice in --into",
    );
  });
});
