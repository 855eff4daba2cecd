import { describe, expect, it } from "vitest";
import { type DecimalSeparator, parseAmount } from "./parse-amount";

describe("parseAmount", () => {
  it.each<[string, DecimalSeparator, string]>([
    ["12.5", ".", "12.50"],
    ["-12.50", ".", "-12.50"],
    ["+3", ".", "3.00"],
    [".5", ".", "0.50"],
    ["0012.00", ".", "12.00"],
    ["1,234.56", ".", "1234.56"],
    ["1,234,567.8", ".", "1234567.80"],
    ["$1,234.56", ".", "1234.56"],
    ["-$12.00", ".", "-12.00"],
    ["$-12.00", ".", "-12.00"],
    ["(12.50)", ".", "-12.50"],
    ["12.50-", ".", "-12.50"],
    ["\u221212.50", ".", "-12.50"],
    ["  7.10  ", ".", "7.10"],
    ["12.5000", ".", "12.50"],
    ["-0.00", ".", "0.00"],
    ["(0)", ".", "0.00"],
    ["1'234.50", ".", "1234.50"],
    ["-12,50", ",", "-12.50"],
    ["1.234,56", ",", "1234.56"],
    ["1 234,56 €", ",", "1234.56"],
    ["1\u00a0234,56", ",", "1234.56"],
    ["12", ",", "12.00"],
    ["999999999999.99", ".", "999999999999.99"],
  ])("reads %j with %j as %j", (text, decimal, expected) => {
    expect(parseAmount(text, decimal)).toBe(expected);
  });

  it.each<[string, DecimalSeparator, RegExp]>([
    ["", ".", /empty/],
    ["   ", ".", /empty/],
    ["abc", ".", /'abc' is not an amount$/],
    ["12.3.4", ".", /not an amount with '\.' as the decimal separator/],
    ["1,23", ".", /not an amount with '\.' as the decimal separator/],
    ["12.50", ",", /not an amount with ',' as the decimal separator/],
    ["12.505", ".", /more than 2 decimal places/],
    ["--12", ".", /not an amount/],
    ["-12-", ".", /two signs/],
    ["(-12)", ".", /two signs/],
    ["1234567890123", ".", /too large/],
    ["-", ".", /not an amount/],
    ["1e5", ".", /not an amount/],
  ])("refuses %j (decimal %j)", (text, decimal, message) => {
    expect(() => parseAmount(text, decimal)).toThrow(message);
  });
});
