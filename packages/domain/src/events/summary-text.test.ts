import Big from "big.js";
import { describe, expect, it } from "vitest";
import { countOf, moneyText } from "./summary-text";

describe("summary text", () => {
  it("writes amounts with two decimals and the currency, rounding half up", () => {
    expect(moneyText("50", "USD")).toBe("50.00 USD");
    expect(moneyText(new Big("-1.005"), "EUR")).toBe("-1.01 EUR");
    expect(moneyText("-0.00", "USD")).toBe("0.00 USD");
  });

  it("counts in the singular for one", () => {
    expect(countOf(1, "budget")).toBe("1 budget");
    expect(countOf(0, "budget")).toBe("0 budgets");
    expect(countOf(2, "entry", "entries")).toBe("2 entries");
  });
});
