import type { Forecast } from "@allot/sdk/resource-types";
import type { ChartPoint } from "../format/line-chart";

const DAY_MS = 24 * 60 * 60 * 1000;
const nextDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/**
 * Unallocated at the end of every day from the forecast's `from` through its `until`, as the API's
 * decimal strings: its start, then the `unallocated_after` of each day's last event, carried over
 * days without one; a `series` point, the API's own end of that day, stands where there is one.
 */
export function dailyUnallocated(
  forecast: Pick<Forecast, "from" | "until" | "unallocated" | "events" | "series">,
): ChartPoint[] {
  const atSeries = new Map(forecast.series.map((point) => [point.date, point.unallocated]));
  const days: ChartPoint[] = [];
  let balance = forecast.unallocated.start;
  let next = 0;
  for (let date = forecast.from; date <= forecast.until; date = nextDay(date)) {
    for (; next < forecast.events.length && (forecast.events[next]?.date ?? "") <= date; next++)
      balance = forecast.events[next]?.unallocated_after ?? balance;
    balance = atSeries.get(date) ?? balance;
    days.push({ date, value: balance });
  }
  return days;
}
