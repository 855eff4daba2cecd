import type { ForecastInterval } from "@allot/contract/forecasts/forecast";
import { addDays } from "../funding/schedule-events";

/** 0 for a Sunday, 6 for a Saturday. */
const dayOfWeek = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** The last day of the date's month. */
function lastOfMonth(date: string): string {
  const at = new Date(`${date.slice(0, 7)}-01T00:00:00Z`);
  at.setUTCMonth(at.getUTCMonth() + 1, 0);
  return at.toISOString().slice(0, 10);
}

/**
 * The days a forecast's series has a point on (docs/spec/extensions.md §8), ascending, from `from`
 * through `until`: every day for `day`, every Sunday for `week`, every last day of a month for
 * `month`, and always `until`. Pure.
 */
export function seriesDates(from: string, until: string, interval: ForecastInterval): string[] {
  const dates: string[] = [];
  let date =
    interval === "day"
      ? from
      : interval === "week"
        ? addDays(from, (7 - dayOfWeek(from)) % 7) // the first Sunday
        : lastOfMonth(from);
  while (date <= until) {
    dates.push(date);
    date =
      interval === "day"
        ? addDays(date, 1)
        : interval === "week"
          ? addDays(date, 7)
          : lastOfMonth(addDays(date, 1));
  }
  if (dates[dates.length - 1] !== until) dates.push(until);
  return dates;
}
