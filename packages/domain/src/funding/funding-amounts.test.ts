import Big from "big.js";
import { describe, expect, it } from "vitest";
import {
  cappedAmount,
  fillupAmount,
  goalByDateAmount,
  goalFixedAmount,
  refreshAmount,
} from "./funding-amounts";

const big = (value: string) => new Big(value);

describe("goalFixedAmount (Goal F: min(funding_amount, target − funded))", () => {
  it.each([
    ["the fixed amount while far from the target", "25", "1000", "0", "25.00"],
    ["the fixed amount when it exactly fills the target", "25", "100", "75", "25.00"],
    ["only what the target still lacks", "25", "100", "90", "10.00"],
    ["only the last cent", "25", "100", "99.99", "0.01"],
    ["zero once the target is reached", "25", "100", "100", "0.00"],
    ["zero when funded past the target", "25", "100", "130", "0.00"],
    ["zero for a zero funding amount", "0", "100", "0", "0.00"],
    ["zero for a zero target", "25", "0", "0", "0.00"],
    ["the fixed amount rounded half-up to cents", "0.005", "100", "0", "0.01"],
    ["a remainder rounded half-up to cents", "25", "100.005", "90", "10.01"],
    ["a sub-cent remainder below half a cent rounded to zero", "25", "100.004", "100", "0.00"],
  ])("%s (amount %s, target %s, funded %s → %s)", (_, amount, target, funded, expected) => {
    expect(goalFixedAmount(big(amount), big(target), big(funded)).toFixed(2)).toBe(expected);
  });
});

describe("goalByDateAmount (Goal D: (target − funded) ÷ fund events through target_date)", () => {
  it.each([
    ["an even split over four events", "100", "0", 4, "25.00"],
    ["100 over 3 events, rounded down", "100", "0", 3, "33.33"],
    ["200 over 3 events, rounded half-up", "200", "0", 3, "66.67"],
    ["the second of three events after 33.33", "100", "33.33", 2, "33.34"],
    ["the last of three events picking up the remainder", "100", "66.66", 1, "33.34"],
    ["the last event after 33.33 + 33.34", "100", "66.67", 1, "33.33"],
    ["the last of three events of 200 after 66.67 + 66.67", "200", "133.34", 1, "66.66"],
    ["a single event: everything missing", "100", "40", 1, "60.00"],
    ["no event left counts as one (past the target date)", "100", "40", 0, "60.00"],
    ["a negative count counts as one", "100", "40", -3, "60.00"],
    ["zero once the target is reached", "100", "100", 3, "0.00"],
    ["zero when funded past the target", "100", "120", 3, "0.00"],
    ["a half cent per event rounded half-up", "0.01", "0", 2, "0.01"],
  ])("%s (target %s, funded %s, %i events → %s)", (_, target, funded, events, expected) => {
    expect(goalByDateAmount(big(target), big(funded), events).toFixed(2)).toBe(expected);
  });

  it.each([
    ["100", 3, ["33.33", "33.34", "33.33"]],
    ["200", 3, ["66.67", "66.67", "66.66"]],
    ["10", 4, ["2.50", "2.50", "2.50", "2.50"]],
    ["1", 3, ["0.33", "0.34", "0.33"]],
    ["1000", 7, ["142.86", "142.86", "142.86", "142.86", "142.85", "142.86", "142.85"]],
  ])(
    "a cycle for %s over %i events, each from the state the earlier ones left, sums to the target",
    (target, events, expected) => {
      let funded = big("0");
      const amounts: string[] = [];
      for (let left = events; left > 0; left -= 1) {
        const amount = goalByDateAmount(big(target), funded, left);
        amounts.push(amount.toFixed(2));
        funded = funded.plus(amount);
      }
      expect(amounts).toEqual(expected);
      expect(funded.toFixed(2)).toBe(big(target).toFixed(2));
    },
  );
});

describe("cappedAmount (Capped: min(funding_amount, cap − balance))", () => {
  it.each([
    ["the fixed amount from empty", "40", "100", "0", "40.00"],
    ["the fixed amount below the cap", "40", "100", "60", "40.00"],
    ["only up to the cap", "40", "100", "80", "20.00"],
    ["a refill after spending", "40", "100", "75", "25.00"],
    ["the full amount after overspending (negative balance)", "40", "100", "-30", "40.00"],
    ["zero at the cap", "40", "100", "100", "0.00"],
    ["zero above the cap", "40", "100", "150", "0.00"],
    ["the fixed amount rounded half-up", "0.005", "100", "0", "0.01"],
  ])("%s (amount %s, cap %s, balance %s → %s)", (_, amount, cap, balance, expected) => {
    expect(cappedAmount(big(amount), big(cap), big(balance)).toFixed(2)).toBe(expected);
  });
});

describe("fillupAmount (Recurring fund: (target − fill-up balance) ÷ fund events before the refresh)", () => {
  it.each([
    ["four equal parts from empty", "100", "0", 4, "25.00"],
    ["the second of four parts", "100", "25", 3, "25.00"],
    ["the last part before the refresh", "100", "75", 1, "25.00"],
    ["a third, rounded", "100", "0", 3, "33.33"],
    ["the last of three parts picks up the remainder", "100", "66.66", 1, "33.34"],
    ["no events counted: everything missing", "100", "30", 0, "70.00"],
    ["zero when the fill-up is full", "100", "100", 4, "0.00"],
    ["zero when the fill-up holds more than the target", "100", "140", 2, "0.00"],
    ["more after the fill-up went negative", "100", "-20", 4, "30.00"],
    ["half a cent per event rounded half-up", "0.03", "0", 2, "0.02"],
  ])("%s (target %s, fill-up %s, %i events → %s)", (_, target, fillup, events, expected) => {
    expect(fillupAmount(big(target), big(fillup), events).toFixed(2)).toBe(expected);
  });
});

describe("refreshAmount (Recurring refresh: target − balance, at most the fill-up balance)", () => {
  it.each([
    ["the whole target into an empty budget", "100", "0", "100", "100.00"],
    ["what was spent since the last refresh", "100", "70", "100", "30.00"],
    ["bounded by the fill-up balance", "100", "0", "60", "60.00"],
    ["bounded by target − balance when the fill-up holds more", "100", "90", "250", "10.00"],
    ["more than the target after overspending, if the fill-up has it", "100", "-20", "150", "120.00"],
    ["zero at the target", "100", "100", "100", "0.00"],
    ["zero above the target", "100", "130", "100", "0.00"],
    ["zero from an empty fill-up", "100", "0", "0", "0.00"],
    ["zero from a negative fill-up", "100", "0", "-10", "0.00"],
    ["rounded half-up to cents", "100", "99.995", "10", "0.01"],
  ])("%s (target %s, balance %s, fill-up %s → %s)", (_, target, balance, fillup, expected) => {
    expect(refreshAmount(big(target), big(balance), big(fillup)).toFixed(2)).toBe(expected);
  });
});

describe("rounding", () => {
  it.each([
    ["0.005", "0.01"],
    ["0.004", "0.00"],
    ["0.015", "0.02"],
    ["1.005", "1.01"],
    ["2.675", "2.68"],
    ["33.335", "33.34"],
    ["33.3349", "33.33"],
  ])("%s rounds half-up to %s", (amount, expected) => {
    const rounded = goalFixedAmount(big(amount), big("1000"), big("0"));
    expect(rounded.toFixed(2)).toBe(expected);
    expect(rounded.eq(rounded.round(2))).toBe(true);
  });

  it.each([
    ["goalFixedAmount", () => goalFixedAmount(big("10"), big("5"), big("8"))],
    ["goalByDateAmount", () => goalByDateAmount(big("5"), big("8"), 2)],
    ["cappedAmount", () => cappedAmount(big("10"), big("5"), big("8"))],
    ["fillupAmount", () => fillupAmount(big("5"), big("8"), 2)],
    ["refreshAmount", () => refreshAmount(big("5"), big("8"), big("10"))],
    ["a negative half cent", () => goalFixedAmount(big("-0.005"), big("5"), big("0"))],
  ])("%s is never negative", (_, amount) => {
    const value = amount();
    expect(value.gte(0)).toBe(true);
    expect(value.toFixed(2)).toBe("0.00");
  });
});
