import Big from "big.js";
import { describe, expect, it } from "vitest";
import { addToTotal, decimal, formatMoney, type Money, minMoney, sumMoney, toMoney, ZERO } from "./money";

describe("toMoney then formatMoney", () => {
  it.each([
    // Canonical text round-trips unchanged.
    ["12.50", "12.50"],
    ["-12.50", "-12.50"],
    ["0.00", "0.00"],
    ["-0.05", "-0.05"],
    ["999999999999.99", "999999999999.99"],
    ["-999999999999.99", "-999999999999.99"],
    // Other decimal text comes out canonical.
    ["12.5", "12.50"],
    ["7", "7.00"],
    ["007.50", "7.50"],
    [".5", "0.50"],
    ["1e3", "1000.00"],
    // Negative zero has no sign, however it is written or reached.
    ["-0", "0.00"],
    ["-0.00", "0.00"],
    ["-0.004", "0.00"],
    // Half-up to cents, away from zero for negatives; many digits read exactly, never through a float.
    ["0.125", "0.13"],
    ["1.005", "1.01"],
    ["-1.005", "-1.01"],
    ["-0.005", "-0.01"],
    ["0.004999999999999999999999", "0.00"],
    ["123456789012.344999999999999999", "123456789012.34"],
    ["9007199254740993.01", "9007199254740993.01"],
  ])("%s → %s", (text, wire) => {
    expect(formatMoney(toMoney(text))).toBe(wire);
    expect(formatMoney(text)).toBe(wire);
  });

  it.each(["", " 1", "12,50", "1.2.3", "abc", "NaN", "Infinity", "+5", "$5"])(
    "refuses %j, which is not a decimal",
    (text) => {
      expect(() => toMoney(text)).toThrow("Invalid number");
      expect(() => formatMoney(text)).toThrow("Invalid number");
    },
  );

  it("rounds a computed value to cents", () => {
    expect(formatMoney(new Big(3).div(8))).toBe("0.38");
    expect(toMoney(new Big(1).div(3)).eq("0.33")).toBe(true);
  });

  it("adds cents exactly where floats would not", () => {
    expect(formatMoney(toMoney("0.1").plus(toMoney("0.2")))).toBe("0.30");
  });

  it("gives canonical text back as the same string", () => {
    const text = "-4.20";
    expect(formatMoney(text)).toBe(text);
  });
});

describe("helpers", () => {
  it("sums row text and Money, zero for none", () => {
    expect(formatMoney(sumMoney(["1.10", toMoney("2.20"), "-0.30"]))).toBe("3.00");
    expect(sumMoney([])).toBe(ZERO);
  });

  it("keeps running totals per key", () => {
    const totals = new Map<string, Money>();
    addToTotal(totals, "a", "1.50");
    addToTotal(totals, "a", toMoney("-0.50"));
    addToTotal(totals, "b", "2.00");
    expect([...totals].map(([key, total]) => [key, formatMoney(total)])).toEqual([
      ["a", "1.00"],
      ["b", "2.00"],
    ]);
  });

  it("takes the smaller amount", () => {
    expect(formatMoney(minMoney(toMoney("-1.00"), toMoney("0.50")))).toBe("-1.00");
    expect(formatMoney(minMoney(toMoney("3.00"), toMoney("2.99")))).toBe("2.99");
  });

  it("reads decimals that are not money exactly, unrounded, and whole numbers only", () => {
    expect(decimal(1).times(100).div(3).toFixed(20)).toBe("33.33333333333333333333");
    expect(decimal("1.001").eq("1.00")).toBe(false);
    expect(decimal("1.0").eq("1.00")).toBe(true);
    expect(() => decimal(0.1)).toThrow("only whole numbers");
    expect(() => decimal("abc")).toThrow("Invalid number");
  });
});
