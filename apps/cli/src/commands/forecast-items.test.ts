import { describe, expect, it } from "vitest";
import { UsageError } from "../output";
import { forecastItem, forecastItems } from "./forecast-items";

describe("forecastItem", () => {
  it.each([
    ["2027-01-15 -1200.00 Car repair", { date: "2027-01-15", amount: "-1200.00", description: "Car repair" }],
    [
      "  2027-01-15   +250   Tax refund, at last  ",
      { date: "2027-01-15", amount: "250", description: "Tax refund, at last" },
    ],
    ["2027-02-28 0.5 x", { date: "2027-02-28", amount: "0.5", description: "x" }],
    [
      "2028-02-29 -99999999999.99 Big  one",
      { date: "2028-02-29", amount: "-99999999999.99", description: "Big  one" },
    ],
  ])("reads %j", (text, item) => {
    expect(forecastItem(text)).toEqual(item);
  });

  it.each([
    ["2027-01-15 -1200.00", "it needs a date, an amount and a description"],
    ["", "it needs a date, an amount and a description"],
    ["tomorrow -5 Lunch", "'tomorrow' is not a date, YYYY-MM-DD"],
    ["2027-02-30 -5 Lunch", "'2027-02-30' is not a date, YYYY-MM-DD"],
    ["2027-01-15 -12.345 Lunch", "'-12.345' is not an amount"],
    ["2027-01-15 1,200.00 Rent", "'1,200.00' is not an amount"],
    ["2027-01-15 +-5 Lunch", "'+-5' is not an amount"],
    ["2027-01-15 Car -1200.00", "'Car' is not an amount"],
    [`2027-01-15 -1 ${"x".repeat(201)}`, "the description is longer than 200 characters"],
  ])("refuses %j: %s", (text, reason) => {
    expect(() => forecastItem(text)).toThrow(UsageError);
    expect(() => forecastItem(text)).toThrow(reason);
  });

  it("says how an item reads, exit 2's code", () => {
    const error = (() => {
      try {
        forecastItem("2027-01-15 lots Car");
      } catch (caught) {
        return caught as UsageError;
      }
    })();
    expect(error?.code).toBe("invalid_item");
    expect(error?.message).toBe(
      `--item '2027-01-15 lots Car': 'lots' is not an amount like -1200.00 (up to 12 digits and 2 decimals). Give "DATE AMOUNT DESCRIPTION", e.g. "2027-01-15 -1200.00 Car repair" (AMOUNT signed: negative is money out).`,
    );
  });

  it("takes at most 100 items", () => {
    expect(forecastItems(Array(100).fill("2027-01-15 -1 x"))).toHaveLength(100);
    expect(() => forecastItems(Array(101).fill("2027-01-15 -1 x"))).toThrow(
      "At most 100 --item flags, not 101.",
    );
  });
});
