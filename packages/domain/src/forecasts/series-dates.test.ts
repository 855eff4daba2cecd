import { describe, expect, it } from "vitest";
import { addDays } from "../funding/schedule-events";
import { seriesDates } from "./series-dates";

// 2027-01-03 is a Sunday; 2028 is a leap year.

/** Every day from `from` through `until`, counted without the feature's own stepping. */
function everyDay(from: string, until: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= until; day = addDays(day, 1)) days.push(day);
  return days;
}

const weekday = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();
const isLastOfMonth = (date: string) => addDays(date, 1).slice(8) === "01";

describe("seriesDates", () => {
  describe("day", () => {
    it("given a range of ten days, when the interval is day, then it has every day from from through until", () => {
      expect(seriesDates("2027-01-03", "2027-01-12", "day")).toEqual(everyDay("2027-01-03", "2027-01-12"));
    });

    it("given until the day after from, when the interval is day, then it has both days once", () => {
      expect(seriesDates("2027-12-31", "2028-01-01", "day")).toEqual(["2027-12-31", "2028-01-01"]);
    });

    it("given a range over February of a leap year, when the interval is day, then the 29th is in it", () => {
      const dates = seriesDates("2028-02-27", "2028-03-01", "day");
      expect(dates).toEqual(["2028-02-27", "2028-02-28", "2028-02-29", "2028-03-01"]);
    });
  });

  describe("week", () => {
    it("given a Wednesday start, when the interval is week, then it has every Sunday after it and until", () => {
      // Given: 2027-01-06 is a Wednesday, 2027-02-02 a Tuesday.
      // When
      const dates = seriesDates("2027-01-06", "2027-02-02", "week");
      // Then
      expect(dates).toEqual(["2027-01-10", "2027-01-17", "2027-01-24", "2027-01-31", "2027-02-02"]);
    });

    it("given a Sunday start, when the interval is week, then the start itself is the first point", () => {
      const dates = seriesDates("2027-01-03", "2027-01-20", "week");
      expect(dates).toEqual(["2027-01-03", "2027-01-10", "2027-01-17", "2027-01-20"]);
    });

    it("given a Saturday start, when the interval is week, then the first point is the next day", () => {
      expect(seriesDates("2027-01-02", "2027-01-05", "week")).toEqual(["2027-01-03", "2027-01-05"]);
    });

    it("given until on a Sunday, when the interval is week, then until is listed once", () => {
      const dates = seriesDates("2027-01-04", "2027-01-17", "week");
      expect(dates).toEqual(["2027-01-10", "2027-01-17"]);
    });

    it("given a range without a Sunday, when the interval is week, then until is the only point", () => {
      expect(seriesDates("2027-01-04", "2027-01-08", "week")).toEqual(["2027-01-08"]);
    });

    it("given a year, when the interval is week, then every point but until is a Sunday, seven days apart", () => {
      const dates = seriesDates("2027-03-10", "2028-03-10", "week");
      const sundays = everyDay("2027-03-10", "2028-03-10").filter((day) => weekday(day) === 0);
      expect(dates).toEqual([...sundays, "2028-03-10"]);
    });
  });

  describe("month", () => {
    it("given a mid-month start, when the interval is month, then each month's last day (28, 29, 30, 31) and until", () => {
      // Given: a range over a leap February, a 30-day April and 31-day months.
      // When
      const dates = seriesDates("2028-01-15", "2028-05-10", "month");
      // Then
      expect(dates).toEqual(["2028-01-31", "2028-02-29", "2028-03-31", "2028-04-30", "2028-05-10"]);
    });

    it("given a common year, when the interval is month, then February ends on the 28th", () => {
      expect(seriesDates("2027-02-01", "2027-03-01", "month")).toEqual(["2027-02-28", "2027-03-01"]);
    });

    it("given from the last day of a month, when the interval is month, then from is the first point", () => {
      expect(seriesDates("2027-01-31", "2027-03-15", "month")).toEqual([
        "2027-01-31",
        "2027-02-28",
        "2027-03-15",
      ]);
    });

    it("given from the last day of a 30-day month, when the interval is month, then it steps to the 31st next", () => {
      expect(seriesDates("2027-04-30", "2027-06-30", "month")).toEqual([
        "2027-04-30",
        "2027-05-31",
        "2027-06-30",
      ]);
    });

    it("given until the last day of a month, when the interval is month, then until is listed once", () => {
      const dates = seriesDates("2027-11-05", "2027-12-31", "month");
      expect(dates).toEqual(["2027-11-30", "2027-12-31"]);
    });

    it("given until before the month ends, when the interval is month, then until is the only point", () => {
      expect(seriesDates("2027-06-02", "2027-06-20", "month")).toEqual(["2027-06-20"]);
    });

    it("given three years, when the interval is month, then every point but until ends a month, one per month", () => {
      const dates = seriesDates("2027-01-01", "2029-12-30", "month");
      const ends = everyDay("2027-01-01", "2029-12-30").filter(isLastOfMonth);
      expect(dates).toEqual([...ends, "2029-12-30"]);
      expect(ends).toHaveLength(35);
      expect(ends).toContain("2028-02-29");
      expect(ends).toContain("2029-02-28");
    });
  });

  it.each(["day", "week", "month"] as const)(
    "given any range, when the interval is %s, then the dates ascend, never repeat, and end on until",
    (interval) => {
      for (const [from, until] of [
        ["2027-01-03", "2027-01-04"],
        ["2027-01-31", "2027-01-31"],
        ["2027-02-27", "2028-02-29"],
        ["2027-12-26", "2030-12-26"],
      ] as const) {
        const dates = seriesDates(from, until, interval);
        expect(dates.at(-1)).toBe(until);
        expect(new Set(dates).size).toBe(dates.length);
        expect(dates).toEqual([...dates].sort());
        expect(dates.every((date) => date >= from && date <= until)).toBe(true);
      }
    },
  );
});
