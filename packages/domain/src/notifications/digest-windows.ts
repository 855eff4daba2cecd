import type { DigestFrequency } from "@allot/contract/preferences/preferences";
import { localDate, startOfLocalDay } from "../budgets/account-today";

const HOUR_MS = 3_600_000;
const MORNING = 7;
const EVENING = 18;

// Local hours a digest goes out at, and on which weekday (0 = Sunday) when weekly.
const WINDOWS: Record<DigestFrequency, { hours: number[]; weekday?: number }> = {
  daily_morning: { hours: [MORNING] },
  daily_evening: { hours: [EVENING] },
  twice_daily: { hours: [MORNING, EVENING] },
  weekly_friday: { hours: [MORNING], weekday: 5 },
  weekly_saturday: { hours: [MORNING], weekday: 6 },
  weekly_sunday: { hours: [MORNING], weekday: 0 },
};

const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
const previousDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * The latest digest window at or before `now` in the user's time zone: notifications recorded
 * before it belong in the digest sent then; later ones wait for the next window. "About 7 am" is
 * the local midnight plus 7 hours (an hour off on the night clocks change).
 */
export function lastDigestWindow(now: Date, timeZone: string, frequency: DigestFrequency): Date {
  const { hours, weekday } = WINDOWS[frequency];
  let day = localDate(now, timeZone);
  for (let back = 0; back <= 8; back++, day = previousDay(day)) {
    if (weekday !== undefined && weekdayOf(day) !== weekday) continue;
    const midnight = startOfLocalDay(day, timeZone).getTime();
    for (const hour of [...hours].reverse()) {
      const at = midnight + hour * HOUR_MS;
      if (at <= now.getTime()) return new Date(at);
    }
  }
  throw new Error(`no ${frequency} window in the 8 days before ${now.toISOString()}`);
}
