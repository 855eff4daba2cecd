import { describe, expect, it } from "vitest";
import { atLocalTime, localDate, startOfLocalDay, startOfNextLocalDay } from "./local-days";

const HOUR_MS = 3_600_000;
const at = (text: string) => new Date(Date.parse(text));
const shiftDay = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const nextDay = (date: string) => shiftDay(date, 1);
const previousDay = (date: string) => shiftDay(date, -1);

describe("startOfLocalDay", () => {
  it.each([
    // Clocks jump from 23:59:59 to 01:00 at midnight: the day begins at 01:00 local.
    ["America/Havana", "2025-03-09", "2025-03-09T01:00:00-04:00"],
    ["America/Santiago", "2025-09-07", "2025-09-07T01:00:00-03:00"],
    ["America/Asuncion", "2024-10-06", "2024-10-06T01:00:00-03:00"],
    ["America/Sao_Paulo", "2018-11-04", "2018-11-04T01:00:00-02:00"],
    // Clocks go back from 01:00 to 00:00: midnight happens twice, the day begins at the first.
    ["America/Havana", "2025-11-02", "2025-11-02T00:00:00-04:00"],
    // Clocks go back at midnight (24:00 −03:00 → 23:00 −04:00): midnight happens once, after it.
    ["America/Santiago", "2025-04-06", "2025-04-06T00:00:00-04:00"],
    // Ordinary DST changes, at 02:00/03:00, both directions.
    ["Europe/Berlin", "2025-03-30", "2025-03-30T00:00:00+01:00"],
    ["Europe/Berlin", "2025-10-26", "2025-10-26T00:00:00+02:00"],
    ["America/New_York", "2025-03-09", "2025-03-09T00:00:00-05:00"],
    ["America/New_York", "2025-11-02", "2025-11-02T00:00:00-04:00"],
    // The ends of the world's offsets.
    ["Pacific/Kiritimati", "2025-01-01", "2025-01-01T00:00:00+14:00"],
    ["Pacific/Pago_Pago", "2025-01-01", "2025-01-01T00:00:00-11:00"],
    ["Asia/Kathmandu", "2025-01-01", "2025-01-01T00:00:00+05:45"],
  ])("%s %s begins at %s, and that instant is on that day", (zone, date, start) => {
    const begins = startOfLocalDay(date, zone);
    expect(begins.getTime()).toBe(Date.parse(start));
    expect(localDate(begins, zone)).toBe(date);
    expect(localDate(new Date(begins.getTime() - 1), zone) < date).toBe(true);
  });

  it("starts a day the zone skipped where the calendar reaches it: the next day's start", () => {
    // Samoa went from 2011-12-29 23:59:59 −10:00 straight to 2011-12-31 00:00 +14:00.
    const begins = startOfLocalDay("2011-12-30", "Pacific/Apia");
    expect(begins.getTime()).toBe(Date.parse("2011-12-31T00:00:00+14:00"));
    expect(begins.toISOString()).toBe("2011-12-30T10:00:00.000Z");
    expect(startOfLocalDay("2011-12-31", "Pacific/Apia")).toEqual(begins);
    expect(localDate(begins, "Pacific/Apia")).toBe("2011-12-31");
    expect(localDate(new Date(begins.getTime() - 1), "Pacific/Apia")).toBe("2011-12-29");
    expect(startOfLocalDay("2011-12-29", "Pacific/Apia").getTime()).toBe(
      Date.parse("2011-12-29T00:00:00-10:00"),
    );
  });

  it("reads an unknown zone as UTC, and gives an invalid Date for an invalid date", () => {
    expect(startOfLocalDay("2025-09-07", "Mars/Olympus").toISOString()).toBe("2025-09-07T00:00:00.000Z");
    expect(localDate(at("2025-09-07T23:59:59Z"), "Mars/Olympus")).toBe("2025-09-07");
    expect(startOfLocalDay("2025-02-30", "Europe/Berlin").getTime()).toBeNaN();
    expect(startOfNextLocalDay("not a date", "Europe/Berlin").getTime()).toBeNaN();
  });

  it("gives each day on which any zone changes its clocks, in 2011 and 2025, its first instant", () => {
    // The rule itself, checked against Intl's reading of the clock on every such day (and the days
    // either side): the start is on the day (or later, for a skipped day), the instant before is not.
    const failures: string[] = [];
    let checked = 0;
    for (const zone of Intl.supportedValuesOf("timeZone")) {
      const format = new Intl.DateTimeFormat("en", { timeZone: zone, timeZoneName: "longOffset" });
      // "1/1/2025, GMT+05:45": the offset follows the "GMT".
      const offset = (date: string) => format.format(at(`${date}T00:00:00Z`)).split("GMT")[1];
      for (const year of [2011, 2025]) {
        let previous = offset(`${year - 1}-12-31`);
        for (let date = `${year}-01-01`; date < `${year + 1}-01-01`; date = nextDay(date)) {
          const current = offset(date);
          if (current === previous) continue;
          previous = current;
          // The change happened within the 24 hours before this UTC midnight: check the local days
          // around it.
          for (const day of [previousDay(previousDay(date)), previousDay(date), date, nextDay(date)]) {
            checked += 1;
            const begins = startOfLocalDay(day, zone);
            const skipped = localDate(begins, zone) > day;
            const ok =
              localDate(begins, zone) >= day &&
              localDate(new Date(begins.getTime() - 1), zone) < day &&
              // A skipped day lasts no time: the next day begins where it does.
              startOfNextLocalDay(day, zone).getTime() - begins.getTime() >= (skipped ? 0 : 1);
            if (!ok) failures.push(`${zone} ${day} → ${begins.toISOString()}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(500);
  });
});

describe("startOfNextLocalDay", () => {
  it.each([
    ["Europe/Berlin", "2025-03-30", "2025-03-31T00:00:00+02:00", 23],
    ["Europe/Berlin", "2025-10-26", "2025-10-27T00:00:00+01:00", 25],
    ["America/New_York", "2025-03-09", "2025-03-10T00:00:00-04:00", 23],
    ["America/New_York", "2025-11-02", "2025-11-03T00:00:00-05:00", 25],
    ["America/Santiago", "2025-09-06", "2025-09-07T01:00:00-03:00", 24],
    ["America/Santiago", "2025-04-05", "2025-04-06T00:00:00-04:00", 25],
    // Across the skipped 2011-12-30: the next day that exists begins at its local midnight.
    ["Pacific/Apia", "2011-12-29", "2011-12-31T00:00:00+14:00", 24],
  ])("%s %s ends at %s, %i hours after it began", (zone, date, end, hours) => {
    const ends = startOfNextLocalDay(date, zone);
    expect(ends.getTime()).toBe(Date.parse(end));
    expect(ends.getTime() - startOfLocalDay(date, zone).getTime()).toBe(hours * HOUR_MS);
  });

  it("crosses months and years", () => {
    expect(startOfNextLocalDay("2024-12-31", "Pacific/Kiritimati").getTime()).toBe(
      Date.parse("2025-01-01T00:00:00+14:00"),
    );
    expect(startOfNextLocalDay("2024-02-28", "UTC").toISOString()).toBe("2024-02-29T00:00:00.000Z");
  });
});

describe("atLocalTime", () => {
  it.each([
    ["Europe/Berlin", "2025-03-30", "07:00", "2025-03-30T05:00:00Z"],
    ["Europe/Berlin", "2025-10-26", "07:00", "2025-10-26T06:00:00Z"],
    // 02:30 never happens that night (02:00 → 03:00): the moment the clock passes it.
    ["America/New_York", "2025-03-09", "02:30", "2025-03-09T03:00:00-04:00"],
    // 01:30 happens twice (02:00 → 01:00): the first.
    ["America/New_York", "2025-11-02", "01:30", "2025-11-02T01:30:00-04:00"],
    // A time of a skipped day is the moment the calendar jumped past it.
    ["Pacific/Apia", "2011-12-30", "07:00", "2011-12-31T00:00:00+14:00"],
  ])("%s %s %s is %s", (zone, date, time, instant) => {
    expect(atLocalTime(date, time, zone).getTime()).toBe(Date.parse(instant));
  });
});
