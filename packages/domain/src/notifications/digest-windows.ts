import type { DigestFrequency } from "@allot/contract/preferences/preferences";
import { atLocalTime, localDate } from "../calendar/local-days";

const MORNING = "07:00";
const EVENING = "18:00";

// Local times a digest goes out at, and on which weekday (0 = Sunday) when weekly.
const WINDOWS: Record<DigestFrequency, { times: string[]; weekday?: number }> = {
  daily_morning: { times: [MORNING] },
  daily_evening: { times: [EVENING] },
  twice_daily: { times: [MORNING, EVENING] },
  weekly_friday: { times: [MORNING], weekday: 5 },
  weekly_saturday: { times: [MORNING], weekday: 6 },
  weekly_sunday: { times: [MORNING], weekday: 0 },
};

const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
const previousDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * The latest digest window at or before `now` in the user's time zone: notifications recorded
 * before it belong in the digest sent then; later ones wait for the next window. A window is the
 * real local wall-clock time, also on the day clocks change (Europe/Berlin 2025-03-30 07:00 is
 * 05:00Z, 2025-10-26 07:00 is 06:00Z). Where 07:00 never happens (inside a spring-forward gap) the
 * window is the jump past it; where it happens twice (clocks going back over it), the first one,
 * so no digest waits an extra hour: atLocalTime's "first instant the clock reads it or later".
 */
export function lastDigestWindow(now: Date, timeZone: string, frequency: DigestFrequency): Date {
  const { times, weekday } = WINDOWS[frequency];
  let day = localDate(now, timeZone);
  for (let back = 0; back <= 8; back++, day = previousDay(day)) {
    if (weekday !== undefined && weekdayOf(day) !== weekday) continue;
    for (const time of [...times].reverse()) {
      const at = atLocalTime(day, time, timeZone);
      if (at.getTime() <= now.getTime()) return at;
    }
  }
  throw new Error(`no ${frequency} window in the 8 days before ${now.toISOString()}`);
}
