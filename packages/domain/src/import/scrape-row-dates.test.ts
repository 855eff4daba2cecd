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
    // Posted on the 25-hour day itself (2026-11-01): noon stays noon on the purchase day.
    [
      "2026-11-01T20:00:00Z",
      "X 10/30",
      "2026-11-01T20:00:00.000Z",
      "2026-11-01",
      "2026-10-30",
      "2026-10-30T19:00:00.000Z",
    ],
    // A time without an offset is a wall-clock time in the account's zone.
    [
      "2026-11-20T09:30:00",
      "X 11/18",
      "2026-11-20T17:30:00.000Z",
      "2026-11-20",
      "2026-11-18",
      "2026-11-18T17:30:00.000Z",
    ],
  ])("%s %s", (posted, description, postedAt, postedDay, transactionDay, transactionAt) => {
    expect(dates(posted, description)).toEqual({ postedAt, postedDay, transactionDay, transactionAt });
  });

  it("starts a purchase day at its first instant where clocks jump over midnight", () => {
    // America/Santiago skipped from 2025-09-07 00:00 to 01:00 (−03:00).
    expect(dates("2025-09-08", "POS 09/07 X", "America/Santiago").transactionAt).toBe(
      "2025-09-07T04:00:00.000Z",
    );
  });

  it("reads a bare date as UTC midnight in a UTC account", () => {
    expect(dates("2026-11-20", "A", "UTC").postedAt).toBe("2026-11-20T00:00:00.000Z");
  });
});
