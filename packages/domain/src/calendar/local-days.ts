import { Temporal } from "temporal-polyfill";

// Making an Intl.DateTimeFormat costs about a quarter of a millisecond, using one a microsecond:
// an import reads thousands of dates, so each zone's formatter is made once. A zone Intl does not
// know gets null here and is read as UTC everywhere in this file.
const dayFormats = new Map<string, Intl.DateTimeFormat | null>();
function dayFormat(timeZone: string): Intl.DateTimeFormat | null {
  let format = dayFormats.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat("en-CA", {
        timeZone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
      });
    } catch {
      format = null; // an unknown zone
    }
    dayFormats.set(timeZone, format);
  }
  return format;
}
const knownZone = (timeZone: string) => (dayFormat(timeZone) ? timeZone : "UTC");

/**
 * YYYY-MM-DD of an instant in a time zone (UTC when the zone is unknown). Intl reads the local
 * clock straight from the zone rules (the same ICU data the Temporal polyfill reads), so this needs
 * no offset arithmetic and is right on any day.
 */
export function localDate(at: Date, timeZone: string): string {
  return (dayFormat(timeZone) ?? (dayFormat("UTC") as Intl.DateTimeFormat)).format(at);
}

// Imports and funding runs ask for the same few hundred days over and over.
const dayStarts = new Map<string, number>();
const DAY_STARTS_LIMIT = 10_000;

/**
 * The instant a local date (YYYY-MM-DD) begins in a time zone (UTC when the zone is unknown): the
 * first instant whose local date is `date` or later. Where clocks jump over midnight (America/
 * Santiago 2025-09-07 goes from 23:59:59 −04:00 to 01:00 −03:00) that is the jump, 01:00 local;
 * where midnight happens twice, the first one. A day the zone skipped entirely (Pacific/Apia
 * 2011-12-30) begins where the calendar reaches it: with the next day, 2011-12-31 00:00 +14:00.
 * An invalid date gives an invalid Date.
 */
export function startOfLocalDay(date: string, timeZone: string): Date {
  const key = `${timeZone} ${date}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    start = computeStartOfLocalDay(date, timeZone);
    if (dayStarts.size >= DAY_STARTS_LIMIT) dayStarts.clear();
    dayStarts.set(key, start);
  }
  return new Date(start);
}

/**
 * The instant the day after `date` begins: the exclusive end of `date`'s local day (23 or 25 hours
 * after its start on a DST day; after a skipped day, the start of the next day that exists).
 */
export function startOfNextLocalDay(date: string, timeZone: string): Date {
  let next: string;
  try {
    next = Temporal.PlainDate.from(date).add({ days: 1 }).toString();
  } catch {
    return new Date(Number.NaN);
  }
  return startOfLocalDay(next, timeZone);
}

/**
 * The instant a local wall-clock time (HH:MM, or HH:MM:SS.mmm) happens on a local date: the first instant the local
 * clock reads that date and time or later. A time inside a spring-forward gap is therefore the jump
 * itself (the moment the clock passes it), a time that happens twice when clocks go back is the
 * first of the two, and a skipped day's times are the moment the calendar jumped past them. An
 * invalid date or time gives an invalid Date.
 */
export function atLocalTime(date: string, time: string, timeZone: string): Date {
  return new Date(firstInstantAtOrAfter(date, time, timeZone));
}

/** The local hour (0–23) of an instant in a time zone (UTC when the zone is unknown). */
export function localHour(at: Date, timeZone: string): number {
  return Temporal.Instant.fromEpochMilliseconds(at.getTime()).toZonedDateTimeISO(knownZone(timeZone)).hour;
}

/** The local wall-clock time of an instant in a time zone, HH:MM:SS.mmm (UTC when the zone is unknown). */
export function localTime(at: Date, timeZone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(at.getTime())
    .toZonedDateTimeISO(knownZone(timeZone))
    .toPlainTime()
    .toString({ fractionalSecondDigits: 3 });
}

function computeStartOfLocalDay(date: string, timeZone: string): number {
  return firstInstantAtOrAfter(date, "00:00", timeZone);
}

function firstInstantAtOrAfter(date: string, time: string, timeZone: string): number {
  try {
    const wall = Temporal.PlainDateTime.from(`${date}T${time}`);
    // The zone's rules, not a guessed offset: "earlier" gives the first of two instants when the
    // time happens twice, and, when it never happens, the instant that far before the jump, whose
    // clock still reads less than `wall`: then the jump is the answer.
    const earlier = wall.toZonedDateTime(knownZone(timeZone), { disambiguation: "earlier" });
    if (Temporal.PlainDateTime.compare(earlier.toPlainDateTime(), wall) >= 0)
      return earlier.epochMilliseconds;
    return earlier.getTimeZoneTransition("next")?.epochMilliseconds ?? Number.NaN;
  } catch {
    return Number.NaN; // not a YYYY-MM-DD date or an HH:MM time
  }
}
