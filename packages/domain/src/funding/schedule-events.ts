import rrule from "rrule";
import { parseScheduleText, type ScheduleLine } from "./schedule-text";

const { RRule, rrulestr } = rrule;
type Rule = InstanceType<typeof RRule>;

/*
 * Event dates of a stored schedule (RRULE text, DTSTART first), and the one bounded walk over a
 * schedule that everything else uses. Funding happens on dates, not at instants: times are read as
 * wall-clock times in UTC fields, so the UTC calendar date of an occurrence is the event's date.
 * TZID parameters are dropped before rrule reads the text, since rrule would turn such times into
 * instants in the server's own zone and shift dates near midnight. Pure: no clock.
 *
 * Every walk is bounded (docs/decisions/0022-bounded-schedules.md), whatever the stored text:
 * - the text is read by the same line parser as the grammar (size, line, rule and date counts);
 *   a text it refuses, or one with a rule firing more often than daily, fires never;
 * - BYHOUR/BYMINUTE/BYSECOND are dropped (they only multiply instants within a day);
 * - each rule starts at its period containing the window's first day, not at DTSTART, so a
 *   DTSTART far back costs nothing; a COUNT rule (at most 1,000) is listed once from DTSTART,
 *   over at most COUNT_WALK_PERIODS periods;
 * - each rule stops after WALK_PERIODS periods or WALK_EVENTS occurrences, even one whose BY* parts
 *   never match (rrule alone would spin to the year 9999 on FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30);
 * - a window is at most WALK_DAYS long: beyond that, dates are not enumerated.
 * EXRULE and EXDATE remove whole dates, RDATE adds them.
 */

/** The widest window a caller asks for (a 10,000-day goal lookahead plus a year), and then some. */
export const WALK_DAYS = 11_000;
const WALK_PERIODS = WALK_DAYS + 1;
const WALK_EVENTS = WALK_DAYS + 1;
// A COUNT rule (at most 1,000 occurrences) is walked from DTSTART once: at most this many periods.
const COUNT_WALK_PERIODS = 4_000;
// A first event is looked for this far ahead, in growing windows so the usual case is quick.
const FIRST_EVENT_WINDOWS = [35, 400, 3_700];
const TIME_PARTS = new Set(["BYHOUR", "BYMINUTE", "BYSECOND"]);
const SUB_DAILY = new Set(["HOURLY", "MINUTELY", "SECONDLY"]);
const TZID_PARAMETER = /;TZID=[^:;\r\n]*/gi;

const DAY_MS = 86_400_000;
const SHORTEST_PERIOD_DAYS: Record<number, number> = {
  [RRule.DAILY]: 1,
  [RRule.WEEKLY]: 7,
  [RRule.MONTHLY]: 28,
  [RRule.YEARLY]: 365,
};
const startOf = (date: string) => new Date(`${date}T00:00:00.000Z`);
const dateOf = (instant: Date) => instant.toISOString().slice(0, 10);
/** YYYYMMDD[THHMMSS[Z]] → YYYY-MM-DD. */
const dateOfValue = (value: string) => `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;

// A run asks for the same few shifted dates tens of thousands of times.
const shifted = new Map<string, string>();
const SHIFTED_LIMIT = 20_000;

/** Adds days to a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const key = `${date}${days}`;
  let result = shifted.get(key);
  if (result === undefined) {
    const at = startOf(date);
    at.setUTCDate(at.getUTCDate() + days);
    result = dateOf(at);
    if (shifted.size >= SHIFTED_LIMIT) shifted.clear();
    shifted.set(key, result);
  }
  return result;
}

interface Walkable {
  dtstart: string;
  rules: string[];
  exrules: string[];
  rdates: string[];
  exdates: Set<string>;
}

/** The stored text as the walk reads it, or null when it fires never. */
function walkableOf(text: string): Walkable | null {
  const parsed = parseScheduleText(text.replace(TZID_PARAMETER, ""));
  if (!parsed.ok) return null;
  const ruleBody = (line: ScheduleLine) =>
    [...line.parts]
      .filter(([key]) => !TIME_PARTS.has(key))
      .map(([key, value]) => `${key}=${value}`)
      .join(";");
  const ruleLines = parsed.lines.filter((line) => line.name === "RRULE" || line.name === "EXRULE");
  if (ruleLines.some((line) => SUB_DAILY.has(line.parts.get("FREQ") ?? ""))) return null;
  const datesOf = (name: string) =>
    parsed.lines
      .filter((line) => line.name === name)
      .flatMap((line) => line.text.slice(line.text.indexOf(":") + 1).split(","))
      .map((value) => dateOfValue(value.trim()));
  return {
    dtstart: parsed.lines.find((line) => line.name === "DTSTART")?.text ?? "",
    rules: ruleLines.filter((line) => line.name === "RRULE").map(ruleBody),
    exrules: ruleLines.filter((line) => line.name === "EXRULE").map(ruleBody),
    rdates: datesOf("RDATE"),
    exdates: new Set(datesOf("EXDATE")),
  };
}

/**
 * The first instant of the rule's period (FREQ and INTERVAL counted from DTSTART) that contains
 * `day`, or null when that is DTSTART's own period. rrule's parsed options already carry every
 * BY* default taken from DTSTART, so starting a later period there changes no occurrence.
 */
function periodStartOn(options: Rule["options"], day: Date): Date | null {
  const start = options.dtstart;
  const interval = options.interval;
  const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));
  const base = utc(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate());
  if (day <= base) return null;
  switch (options.freq) {
    case RRule.DAILY: {
      const n = Math.floor((day.getTime() - base.getTime()) / DAY_MS / interval);
      return n > 0 ? new Date(base.getTime() + n * interval * DAY_MS) : null;
    }
    case RRule.WEEKLY: {
      // rrule's weeks begin on WKST (0 = Monday); getUTCDay has 0 = Sunday.
      const weekday = (base.getUTCDay() + 6) % 7;
      const weekStart = base.getTime() - ((weekday - options.wkst + 7) % 7) * DAY_MS;
      const n = Math.floor((day.getTime() - weekStart) / (7 * DAY_MS) / interval);
      return n > 0 ? new Date(weekStart + n * interval * 7 * DAY_MS) : null;
    }
    case RRule.MONTHLY: {
      const months =
        (day.getUTCFullYear() - base.getUTCFullYear()) * 12 + day.getUTCMonth() - base.getUTCMonth();
      const n = Math.floor(months / interval);
      return n > 0 ? utc(base.getUTCFullYear(), base.getUTCMonth() + n * interval, 1) : null;
    }
    case RRule.YEARLY: {
      const n = Math.floor((day.getUTCFullYear() - base.getUTCFullYear()) / interval);
      return n > 0 ? utc(base.getUTCFullYear() + n * interval, 0, 1) : null;
    }
    default:
      return null;
  }
}

/**
 * A rule's parsed options as rrule's loop reads them: a later DTSTART when given, and an INTERVAL
 * that turns 0 (rrule's own "stop") once the given number of periods is spent, since rrule reads
 * `interval` twice a period. A class with a getter keeps rrule's many property reads fast.
 */
class BoundedOptions {
  private reads = 0;
  private readonly realInterval: number;

  constructor(
    real: Rule["options"],
    dtstart: Date | null,
    private readonly periods: number,
  ) {
    const { interval, ...rest } = real;
    Object.assign(this, rest);
    if (dtstart) Object.assign(this, { dtstart });
    this.realInterval = interval;
  }

  get interval() {
    this.reads += 1;
    return this.reads > 2 * this.periods + 1 ? 0 : this.realInterval;
  }

  get periodsStepped() {
    return Math.ceil(this.reads / 2);
  }
}

// Work done by every walk so far, in rrule steps (periods stepped through plus instants produced):
// the measure the bound tests read, since time on a shared machine measures the machine.
let stepsWalked = 0;
export const scheduleStepsWalked = () => stepsWalked;

/**
 * The dates within [from, through] on which one rule fires, ascending (with repeats), at most
 * WALK_EVENTS occurrences and WALK_PERIODS periods walked.
 */
function ruleDates(dtstart: string, body: string, from: string, through: string): string[] {
  const rule = rrulestr(`${dtstart ? `${dtstart}\n` : ""}RRULE:${body}`, { cache: false }) as Rule;
  const real = rule.options;
  const first = startOf(from);
  const last = new Date(`${through}T23:59:59.999Z`);
  const later = real.count ? null : periodStartOn(real, first);
  // A rule whose BY* parts never match produces nothing to stop at: it may walk only the periods
  // that reach `through`.
  const spanDays = (last.getTime() - (later ?? real.dtstart).getTime()) / DAY_MS;
  const periods = Math.ceil(spanDays / (real.interval * (SHORTEST_PERIOD_DAYS[real.freq] ?? 1))) + 2;
  const cap = real.count ? COUNT_WALK_PERIODS : WALK_PERIODS;
  const options = new BoundedOptions(real, later, Math.min(cap, periods));
  rule.options = options as unknown as Rule["options"];
  const dates: string[] = [];
  let events = 0;
  rule.all((instant) => {
    events += 1;
    if (instant > last) return false;
    if (instant >= first) dates.push(dateOf(instant));
    return events < WALK_EVENTS;
  });
  stepsWalked += options.periodsStepped + events;
  return dates;
}

// A COUNT rule cannot start late (its count runs from DTSTART): its at most COUNT_MAX dates are
// listed once, from DTSTART, and kept.
const countedRules = new Map<string, string[]>();
const COUNTED_RULES_LIMIT = 500;

function countedRuleDates(dtstart: string, body: string, from: string, through: string): string[] {
  const key = `${dtstart}\n${body}`;
  let dates = countedRules.get(key);
  if (!dates) {
    dates = ruleDates(dtstart, body, "0001-01-01", "9999-12-31");
    if (countedRules.size >= COUNTED_RULES_LIMIT) countedRules.clear();
    countedRules.set(key, dates);
  }
  return dates.filter((date) => date >= from && date <= through);
}

const datesOfRule = (dtstart: string, body: string, from: string, through: string) =>
  /(^|;)COUNT=/.test(body)
    ? countedRuleDates(dtstart, body, from, through)
    : ruleDates(dtstart, body, from, through);

function walk(text: string, from: string, through: string): string[] {
  const schedule = walkableOf(text);
  if (!schedule) return [];
  const inWindow = (date: string) => date >= from && date <= through;
  const excluded = new Set([...schedule.exdates].filter(inWindow));
  for (const body of schedule.exrules)
    for (const date of datesOfRule(schedule.dtstart, body, from, through)) excluded.add(date);
  const dates = new Set(schedule.rdates.filter(inWindow));
  for (const body of schedule.rules)
    for (const date of datesOfRule(schedule.dtstart, body, from, through)) dates.add(date);
  return [...dates].filter((date) => !excluded.has(date)).sort();
}

// Answers by question: a budget list asks the same few questions on every request.
const answers = new Map<string, string[]>();
let answeredDates = 0;
const ANSWERED_DATES_LIMIT = 200_000;

/** The distinct dates, ascending, on which the schedule fires within [from, through]. */
export function eventDates(text: string, from: string, through: string): string[] {
  if (!text || from > through) return [];
  const limit = addDays(from, WALK_DAYS);
  const end = through < limit ? through : limit;
  const key = `${from}\n${end}\n${text}`;
  let dates = answers.get(key);
  if (!dates) {
    dates = walk(text, from, end);
    if (answeredDates + dates.length > ANSWERED_DATES_LIMIT || answers.size >= 2_000) {
      answers.clear();
      answeredDates = 0;
    }
    answers.set(key, dates);
    answeredDates += dates.length;
  }
  return dates;
}

/** The first date on or after `from` on which the schedule fires, or null if it does not soon. */
export function firstEventFrom(text: string, from: string): string | null {
  if (!text) return null;
  for (const days of FIRST_EVENT_WINDOWS) {
    const [first] = eventDates(text, from, addDays(from, days));
    if (first) return first;
  }
  return null;
}
