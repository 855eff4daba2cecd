import Big from "big.js";
import { describe, expect, it } from "vitest";
import { formatMoney, toMoney } from "./money";

describe("formatMoney", () => {
  it.each([
    ["12.5", "12.50"],
    ["12.50", "12.50"],
    ["-12.50", "-12.50"],
    ["0", "0.00"],
    ["0.00", "0.00"],
    ["-0.00", "0.00"],
    ["-0.05", "-0.05"],
    ["007.50", "7.50"],
    ["1.005", "1.01"],
    ["-1.005", "-1.01"],
    ["999999999999.99", "999999999999.99"],
  ])("%s → %s", (input, expected) => {
    expect(formatMoney(input)).toBe(expected);
  });

  it("formats Big values", () => {
    expect(formatMoney(new Big("3").div(8))).toBe("0.38");
  });
});

describe("toMoney", () => {
  it("rounds half-up to cents, exactly", () => {
    expect(toMoney("0.125").toFixed(2)).toBe("0.13");
    expect(toMoney("0.1").plus(toMoney("0.2")).toFixed(2)).toBe("0.30");
  });
});
