import rrule from "rrule";

const { rrulestr } = rrule;

type Schedule = ReturnType<typeof rrulestr>;

/*
 * Event dates of a stored schedule (RRULE text, DTSTART first). Funding happens on dates, not at
 * instants: times are read as wall-clock times in UTC fields, so the UTC calendar date of an
 * occurrence is the event's date. TZID parameters are dropped before rrule reads the text, since
 * rrule would turn such times into instants in the server's own zone and shift dates near midnight.
 * Pure: no clock.
 */

// Parsed schedules by text: a list of budgets shares a handful of schedules, and rrule keeps its
// own cache of answers per parsed object.
const parsed = new Map<string, Schedule>();
const PARSED_LIMIT = 2_000;
const TZID_PARAMETER = /;TZID=[^:;\r\n]*/gi;

function scheduleOf(text: string): Schedule {
  let schedule = parsed.get(text);
  if (!schedule) {
    if (parsed.size >= PARSED_LIMIT) parsed.clear();
    schedule = rrulestr(text.replace(TZID_PARAMETER, ""), { forceset: true });
    parsed.set(text, schedule);
  }
  return schedule;
}

const startOf = (date: string) => new Date(`${date}T00:00:00.000Z`);
const endOf = (date: string) => new Date(`${date}T23:59:59.999Z`);
const dateOf = (instant: Date) => instant.toISOString().slice(0, 10);

// A run asks for the same few shifted dates tens of thousands of times.
const shifted = new Map<string, string>();

/** Adds days to a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const key = `${date}${days}`;
  let result = shifted.get(key);
  if (result === undefined) {
    const at = startOf(date);
    at.setUTCDate(at.getUTCDate() + days);
    result = dateOf(at);
    if (shifted.size >= PARSED_LIMIT * 10) shifted.clear();
    shifted.set(key, result);
  }
  return result;
}

/** The distinct dates, ascending, on which the schedule fires within [from, through]. */
export function eventDates(text: string, from: string, through: string): string[] {
  if (!text || from > through) return [];
  const dates: string[] = [];
  for (const instant of scheduleOf(text).between(startOf(from), endOf(through), true)) {
    const date = dateOf(instant);
    if (dates[dates.length - 1] !== date) dates.push(date);
  }
  return dates;
}

/** The first date on or after `from` on which the schedule fires, or null if it never does. */
export function firstEventFrom(text: string, from: string): string | null {
  if (!text) return null;
  const next = scheduleOf(text).after(startOf(from), true);
  return next ? dateOf(next) : null;
}
