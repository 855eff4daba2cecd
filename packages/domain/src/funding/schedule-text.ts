/*
 * RFC 5545 recurrence text, read line by line before rrule ever sees it: rrule's own parser is
 * lenient (it takes `INTERVAL=-1` or `COUNT=x` and then loops forever), so every value is checked
 * here. Pure: no database, no clock.
 */

import { SCHEDULE_MAX } from "@allot/contract/budgets/budget";

export interface ScheduleLine {
  /** DTSTART, RRULE, EXRULE, RDATE or EXDATE. */
  name: string;
  /** The line as it will be stored (a bare `FREQ=…` line gets its `RRULE:` prefix). */
  text: string;
  /** RRULE/EXRULE parts by upper-case key. */
  parts: Map<string, string>;
}

export type ScheduleParse = { ok: true; lines: ScheduleLine[] } | { ok: false; message: string };

const WEEKDAY = "(MO|TU|WE|TH|FR|SA|SU)";
const FREQUENCIES = ["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"];

const intList = (min: number, max: number, signed: boolean) => (value: string) =>
  value.split(",").every((item) => {
    if (!(signed ? /^[+-]?\d{1,3}$/ : /^\d{1,3}$/).test(item)) return false;
    const n = Math.abs(Number(item));
    return n >= min && n <= max;
  });

const COUNT_MAX = 1_000;
const positiveInteger = (value: string) => /^\d{1,6}$/.test(value) && Number(value) >= 1;

const PART_CHECKS: Record<string, (value: string) => boolean> = {
  FREQ: (value) => FREQUENCIES.includes(value),
  INTERVAL: positiveInteger,
  // A COUNT rule is walked from its DTSTART: a thousand occurrences keep that walk short.
  COUNT: (value) => positiveInteger(value) && Number(value) <= COUNT_MAX,
  UNTIL: (value) => isDateValue(value),
  BYSECOND: intList(0, 60, false),
  BYMINUTE: intList(0, 59, false),
  BYHOUR: intList(0, 23, false),
  BYDAY: (value) => value.split(",").every((item) => new RegExp(`^([+-]?\\d{1,2})?${WEEKDAY}$`).test(item)),
  BYMONTHDAY: intList(1, 31, true),
  BYYEARDAY: intList(1, 366, true),
  BYWEEKNO: intList(1, 53, true),
  BYMONTH: intList(1, 12, false),
  BYSETPOS: intList(1, 366, true),
  WKST: (value) => new RegExp(`^${WEEKDAY}$`).test(value),
};

/** `YYYYMMDD` or `YYYYMMDDTHHMMSS[Z]`, a real calendar date and time. */
export function isDateValue(value: string): boolean {
  const match = /^(\d{4})(\d{2})(\d{2})(T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return false;
  if (year < 1900) return false;
  if (!match[4]) return true;
  return Number(match[5]) < 24 && Number(match[6]) < 60 && Number(match[7]) < 61;
}

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** `DTSTART[;TZID=…|;VALUE=DATE]:<date>`: null when fine, else what is wrong. */
function dtstartProblem(params: string[], value: string): string | null {
  for (const param of params) {
    const [key, paramValue = ""] = param.split("=");
    if (key?.toUpperCase() === "TZID") {
      if (!isTimeZone(paramValue)) return `DTSTART has an unknown time zone '${paramValue}'.`;
    } else if (param.toUpperCase() !== "VALUE=DATE" && param.toUpperCase() !== "VALUE=DATE-TIME") {
      return `DTSTART has an unsupported parameter '${param}'.`;
    }
  }
  if (!isDateValue(value)) return `DTSTART '${value}' is not a valid date (YYYYMMDD or YYYYMMDDTHHMMSSZ).`;
  return null;
}

function parseRuleParts(name: string, body: string): Map<string, string> | string {
  const parts = new Map<string, string>();
  for (const part of body.split(";")) {
    if (part === "") continue;
    const equals = part.indexOf("=");
    if (equals < 1) return `${name} part '${part}' is not KEY=VALUE.`;
    const key = part.slice(0, equals).toUpperCase();
    const value = part.slice(equals + 1).toUpperCase();
    const check = PART_CHECKS[key];
    if (!check) return `${name} has an unknown part '${key}'.`;
    if (parts.has(key)) return `${name} repeats ${key}.`;
    if (!check(value)) return `${name} has an invalid ${key} value '${value}'.`;
    parts.set(key, value);
  }
  if (!parts.has("FREQ")) return `${name} needs a FREQ.`;
  if (parts.has("COUNT") && parts.has("UNTIL")) return `${name} cannot have both COUNT and UNTIL.`;
  return parts;
}

// Bounds on what a schedule may hold, so reading or walking one costs little whoever wrote it
// (the text's length is the contract's bound, checked again for text stored some other way).

const LINES_MAX = 10;
const RULES_MAX = 4;
const DATES_MAX = 100;

/** Splits and checks the lines. Empty text is an error: callers decide whether empty is allowed. */
export function parseScheduleText(text: string): ScheduleParse {
  if (text.length > SCHEDULE_MAX)
    return { ok: false, message: `A schedule has at most ${SCHEDULE_MAX} characters.` };
  const rawLines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  if (rawLines.length === 0) return { ok: false, message: "The schedule is empty." };
  if (rawLines.length > LINES_MAX)
    return { ok: false, message: `A schedule has at most ${LINES_MAX} lines.` };
  const lines: ScheduleLine[] = [];
  for (const raw of rawLines) {
    // A bare rule ("FREQ=WEEKLY;INTERVAL=2") is the RRULE line.
    const bare = /^[A-Za-z]+=/.test(raw);
    const colon = raw.indexOf(":");
    if (!bare && colon < 0) return { ok: false, message: `Cannot read the line '${raw}'.` };
    const head = bare ? "RRULE" : raw.slice(0, colon);
    const value = bare ? raw : raw.slice(colon + 1).trim();
    const [nameRaw = "", ...params] = head.split(";");
    const name = nameRaw.toUpperCase();
    if (name === "DTSTART") {
      const problem = dtstartProblem(params, value);
      if (problem) return { ok: false, message: problem };
      lines.push({ name, text: `${["DTSTART", ...params].join(";")}:${value}`, parts: new Map() });
    } else if (name === "RRULE" || name === "EXRULE") {
      if (params.length > 0) return { ok: false, message: `${name} takes no parameters.` };
      const parts = parseRuleParts(name, value);
      if (typeof parts === "string") return { ok: false, message: parts };
      lines.push({ name, text: `${name}:${value}`, parts });
    } else if (name === "RDATE" || name === "EXDATE") {
      if (!value.split(",").every(isDateValue))
        return { ok: false, message: `${name} '${value}' is not a list of valid dates.` };
      lines.push({ name, text: raw, parts: new Map() });
    } else {
      return { ok: false, message: `Unknown schedule line '${nameRaw}'.` };
    }
  }
  if (lines.filter((line) => line.name === "DTSTART").length > 1)
    return { ok: false, message: "Only one DTSTART is allowed." };
  if (!lines.some((line) => line.name === "RRULE")) return { ok: false, message: "An RRULE is required." };
  if (lines.filter((line) => line.name === "RRULE" || line.name === "EXRULE").length > RULES_MAX)
    return { ok: false, message: `A schedule has at most ${RULES_MAX} rules (RRULE and EXRULE lines).` };
  const dates = lines
    .filter((line) => line.name === "RDATE" || line.name === "EXDATE")
    .reduce((sum, line) => sum + line.text.split(",").length, 0);
  if (dates > DATES_MAX)
    return { ok: false, message: `A schedule lists at most ${DATES_MAX} dates (RDATE and EXDATE values).` };
  return { ok: true, lines };
}
