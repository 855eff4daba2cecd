import type { Forecast } from "@allot/sdk/resource-types";
import { describe, expect, it } from "vitest";
import { renderForecastReport } from "./forecast-report";

const FORECAST: Forecast = {
  bank_account: "5b0e7c3d-1f2a-4c6b-8d9e-0a1b2c3d4e5f",
  currency: "EUR",
  from: "2027-01-01",
  until: "2027-01-10",
  assumptions: [
    "Starts from the balances of 2027-01-01 (the account's today) and assumes nothing else changes through 2027-01-10.",
  ],
  unallocated: {
    start: "100.00",
    end: "-50.00",
    lowest: { date: "2027-01-05", balance: "-50.00" },
    first_negative: "2027-01-05",
  },
  budgets: [],
  events: [
    {
      date: "2027-01-05",
      kind: "item",
      budget: null,
      description: "Car repair",
      intended: "-150.00",
      amount: "-150.00",
      status: "complete",
      unallocated_after: "-50.00",
    },
  ],
  series: [{ date: "2027-01-10", unallocated: "-50.00", budgets: {} }],
};

describe("renderForecastReport", () => {
  it("fits the width, says there is no budget, and shows a hostile account name escaped", () => {
    const text = renderForecastReport(FORECAST, {
      accountName: "Joint\u001b[2J",
      width: 60,
      unicode: false,
      colour: false,
    });
    const lines = text.split("\n");
    expect(lines[0]).toBe("Forecast of Joint\\x1b[2J (EUR), 2027-01-01 -> 2027-01-10");
    expect(text).toContain(
      "\nNo budget to forecast but Unallocated: create one with\n`allot budgets create`.\n\nUnallocated (EUR)",
    );
    expect(text).toContain("\n  - Starts from the balances of 2027-01-01 (the account's\n    today)");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    expect(text).toContain(
      "\n\n* Lowest:          -50.00 EUR on 2027-01-05\n  First negative:  2027-01-05\n",
    );
    expect(text.endsWith("2027-01-05\n")).toBe(true);
  });
});
