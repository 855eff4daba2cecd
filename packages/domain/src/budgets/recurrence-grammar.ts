import rrule from "rrule";
import { parseScheduleText, type ScheduleLine } from "../funding/schedule-text";

const { rrulestr } = rrule;

export type ScheduleCheck = { ok: true; value: string } | { ok: false; message: string };

const RECURRENCE_FREQUENCIES = ["WEEKLY", "MONTHLY", "YEARLY"];
const SUB_DAILY = ["HOURLY", "MINUTELY", "SECONDLY"];
const TIME_PARTS = ["BYHOUR", "BYMINUTE", "BYSECOND"];
const DTSTART_YEARS_BACK = 10;

/**
 * A DTSTART more than ten years before the account's today: refused, since nothing is funded
 * before a budget exists and an old DTSTART only costs enumeration time.
 */
function dtstartTooOld(lines: ScheduleLine[], today: string): string | null {
  const value =
    lines
      .find((line) => line.name === "DTSTART")
      ?.text.split(":")
      .pop() ?? "";
  const earliest = `${Number(today.slice(0, 4)) - DTSTART_YEARS_BACK}${today.slice(5, 7)}${today.slice(8, 10)}`;
  if (value === "" || value.slice(0, 8) >= earliest) return null;
  return `DTSTART must not be more than ${DTSTART_YEARS_BACK} years before today (${today}).`;
}

/**
 * Funding moves money at most once per date: a rule firing several times a day (a sub-daily FREQ
 * or any BYHOUR/BYMINUTE/BYSECOND), in an RRULE or an EXRULE, would only cost enumeration time
 * (a SECONDLY rule is 31 million instants a year), and RDATE/EXDATE name dates, not times.
 */
function moreThanDailyProblem(lines: ScheduleLine[]): string | null {
  for (const line of lines) {
    if (line.name === "RRULE" || line.name === "EXRULE") {
      const freq = line.parts.get("FREQ") ?? "";
      if (SUB_DAILY.includes(freq))
        return `Funding happens at most once a day: FREQ must be DAILY or longer, not ${freq} (${line.name}).`;
      const part = TIME_PARTS.find((key) => line.parts.has(key));
      if (part) return `Funding happens at most once a day: ${part} is not allowed (${line.name}).`;
    } else if (line.name === "RDATE" || line.name === "EXDATE") {
      const [head = "", values = ""] = line.text.split(":");
      const params = head.split(";").slice(1);
      if (params.some((param) => param.toUpperCase() !== "VALUE=DATE") || values.includes("T"))
        return `${line.name} takes dates (YYYYMMDD), not times.`;
    }
  }
  return null;
}

/** rrule must read what the checks let through (they are stricter, so this is a safety net). */
export function rruleAccepts(text: string): boolean {
  try {
    rrulestr(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A budget's recurrence_schedule: a single RRULE whose FREQ is WEEKLY, MONTHLY or YEARLY, with an
 * optional INTERVAL, and an optional DTSTART anchoring the refresh day. BY* parts, COUNT, UNTIL,
 * WKST and exception rules or dates (EXRULE, RDATE, EXDATE) are refused, each with a message that
 * names it. The stored form has one line per property (`DTSTART:…` then `RRULE:…`).
 */
export function checkRecurrenceSchedule(text: string, today: string): ScheduleCheck {
  const parsed = parseScheduleText(text);
  if (!parsed.ok) return parsed;
  const { lines } = parsed;
  const tooOld = dtstartTooOld(lines, today);
  if (tooOld) return { ok: false, message: tooOld };
  const exceptions = lines.filter((line) => line.name !== "DTSTART" && line.name !== "RRULE");
  if (exceptions.length > 0) {
    const names = [...new Set(exceptions.map((line) => line.name))].join(", ");
    return {
      ok: false,
      message: `Exception rules and dates (${names}) are not allowed in a recurrence schedule.`,
    };
  }
  const rules = lines.filter((line) => line.name === "RRULE");
  if (rules.length !== 1) return { ok: false, message: "A recurrence schedule is a single RRULE." };
  const parts = rules[0]?.parts ?? new Map<string, string>();
  const freq = parts.get("FREQ") ?? "";
  if (!RECURRENCE_FREQUENCIES.includes(freq))
    return { ok: false, message: `FREQ must be WEEKLY, MONTHLY or YEARLY, not ${freq}.` };
  for (const key of parts.keys()) {
    if (key === "FREQ" || key === "INTERVAL") continue;
    const what = key.startsWith("BY") ? `${key} (BY* parts)` : key;
    return { ok: false, message: `${what} is not allowed in a recurrence schedule.` };
  }
  const value = [...lines]
    .sort((a, b) => (a.name === "DTSTART" ? -1 : b.name === "DTSTART" ? 1 : 0))
    .map((line) => line.text)
    .join("\n");
  if (!rruleAccepts(value)) return { ok: false, message: "The recurrence schedule is not a valid RRULE." };
  return { ok: true, value };
}

/**
 * A funding_schedule: any valid RRULE text (several rules, exception rules and dates allowed), with
 * every part checked, nothing firing more often than daily, DTSTART at most ten years back, and
 * the size bounds of the line parser (docs/decisions/0022-bounded-schedules.md). Without a DTSTART it is anchored: `DTSTART:<today>` (the given local date of
 * the account's first owner) is put in front, so the schedule's first firing date is fixed when
 * saved and does not drift with the day it is read.
 */
export function checkFundingSchedule(text: string, today: string): ScheduleCheck {
  const parsed = parseScheduleText(text);
  if (!parsed.ok) return parsed;
  const problem = moreThanDailyProblem(parsed.lines) ?? dtstartTooOld(parsed.lines, today);
  if (problem) return { ok: false, message: problem };
  const lines = parsed.lines.map((line) => line.text);
  const anchored = parsed.lines.some((line) => line.name === "DTSTART")
    ? lines
    : [`DTSTART:${today.replaceAll("-", "")}`, ...lines];
  const dtstartFirst = [
    ...anchored.filter((line) => line.startsWith("DTSTART")),
    ...anchored.filter((line) => !line.startsWith("DTSTART")),
  ];
  const value = dtstartFirst.join("\n");
  if (!rruleAccepts(value)) return { ok: false, message: "The funding schedule is not a valid RRULE." };
  return { ok: true, value };
}
