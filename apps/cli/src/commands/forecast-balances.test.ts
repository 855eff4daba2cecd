import type { ForecastEvent } from "@allot/sdk/resource-types";
import { describe, expect, it } from "vitest";
import { dailyUnallocated } from "./forecast-balances";

const event = (date: string, unallocated_after: string): ForecastEvent => ({
  date,
  kind: "fund",
  budget: null,
  description: "Funds x",
  intended: "1.00",
  amount: "1.00",
  status: "complete",
  unallocated_after,
});

describe("dailyUnallocated", () => {
  it("carries each day's last balance to the next event, through until (a month's end crossed)", () => {
    const days = dailyUnallocated({
      from: "2027-01-30",
      until: "2027-02-03",
      unallocated: {
        start: "100.00",
        end: "-20.00",
        lowest: { date: "2027-02-02", balance: "-20.00" },
        first_negative: "2027-02-02",
      },
      events: [event("2027-01-30", "90.00"), event("2027-01-30", "80.00"), event("2027-02-02", "-20.00")],
      series: [
        { date: "2027-01-31", unallocated: "80.00", budgets: {} },
        { date: "2027-02-03", unallocated: "-20.00", budgets: {} },
      ],
    });
    expect(days).toEqual([
      { date: "2027-01-30", value: "80.00" },
      { date: "2027-01-31", value: "80.00" },
      { date: "2027-02-01", value: "80.00" },
      { date: "2027-02-02", value: "-20.00" },
      { date: "2027-02-03", value: "-20.00" },
    ]);
  });

  it("is the start every day when nothing happens", () => {
    const days = dailyUnallocated({
      from: "2027-03-27",
      until: "2027-03-29",
      unallocated: {
        start: "5.00",
        end: "5.00",
        lowest: { date: "2027-03-27", balance: "5.00" },
        first_negative: null,
      },
      events: [],
      series: [{ date: "2027-03-29", unallocated: "5.00", budgets: {} }],
    });
    expect(days.map((day) => day.value)).toEqual(["5.00", "5.00", "5.00"]);
  });
});
