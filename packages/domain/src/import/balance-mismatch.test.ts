import { describe, expect, it } from "vitest";
import { balanceMismatch } from "./balance-mismatch";

describe("balanceMismatch", () => {
  it.each([
    ["100.00", "100.00", null],
    ["100", "100.00", null],
    ["0.00", "-0.00", null],
    ["100.00", "90.00", "10.00"],
    ["90.00", "100.00", "-10.00"],
    ["0.30", "0.10", "0.20"],
    ["-5.25", "10.00", "-15.25"],
    ["99999999999.99", "-99999999999.99", "199999999999.98"],
  ])("%s − %s", (computed, ending, expected) => {
    expect(balanceMismatch(computed, ending)).toBe(expected);
  });
});
