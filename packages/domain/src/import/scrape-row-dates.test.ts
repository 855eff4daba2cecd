import { describe, expect, it } from "vitest";
import { scrapeRowDates } from "./scrape-row-dates";

const dates = (posted: string, description: string, zone = "America/Los_Angeles") => {
  const result = scrapeRowDates(posted, description, zone);
  return {
    postedAt: result.postedAt.toISOString(),
    postedDay: result.postedDay,
    transactionDay: result.transactionDay,
    transactionAt: result.transactionAt.toISOString(),
  };
};

describe("scrapeRowDates", () => {
  it.each([
    // A bare date is that day in the account's zone.
    [
      "2026-11-20",
      "GROCER",
      "2026-11-20T08:00:00.000Z",
      "2026-11-20",
      "2026-11-20",
      "2026-11-20T08:00:00.000Z",
    ],
    [
      "2026-11-20",
      "POS 11/17 GROCER",
      "2026-11-20T08:00:00.000Z",
      "2026-11-20",
      "2026-11-17",
      "2026-11-17T08:00:00.000Z",
    ],
    // A date-time keeps its instant; its day is read in the zone (16:00Z is 08:00 in Los Angeles).
    [
      "2026-11-20T16:00:00Z",
      "X 11/19",
      "2026-11-20T16:00:00.000Z",
      "2026-11-20",
      "2026-11-19",
      "2026-11-19T16:00:00.000Z",
    ],
    // 03:00Z on the 20th is still the 19th in Los Angeles.
    [
      "2026-11-20T03:00:00Z",
      "LATE",
      "2026-11-20T03:00:00.000Z",
      "2026-11-19",
      "2026-11-19",
      "2026-11-20T03:00:00.000Z",
    ],
    // Across the end of daylight saving time (2026-11-01): the local time of day is kept.
    [
      "2026-11-02T17:00:00Z",
      "X 10/31",
      "2026-11-02T17:00:00.000Z",
      "2026-11-02",
      "2026-10-31",
      "2026-10-31T16:00:00.000Z",
    ],
  ])("%s %s", (posted, description, postedAt, postedDay, transactionDay, transactionAt) => {
    expect(dates(posted, description)).toEqual({ postedAt, postedDay, transactionDay, transactionAt });
  });

  it("reads a bare date as UTC midnight in a UTC account", () => {
    expect(dates("2026-11-20", "A", "UTC").postedAt).toBe("2026-11-20T00:00:00.000Z");
  });
});
