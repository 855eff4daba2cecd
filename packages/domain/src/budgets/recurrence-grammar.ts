import rrule from "rrule";
import { parseScheduleText } from "./schedule-text";

const { rrulestr } = rrule;

export type ScheduleCheck = { ok: true; value: string } | { ok: false; message: string };

const RECURRENCE_FREQUENCIES = ["WEEKLY", "MONTHLY", "YEARLY"];
const SUB_DAILY = ["HOURLY", "MINUTELY", "SECONDLY"];

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
export function checkRecurrenceSchedule(text: string): ScheduleCheck {
  const parsed = parseScheduleText(text);
  if (!parsed.ok) return parsed;
  const { lines } = parsed;
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
 * every part checked and no rule firing more often than daily. Without a DTSTART it is anchored: `DTSTART:<today>` (the given local date of
 * the account's first owner) is put in front, so the schedule's first firing date is fixed when
 * saved and does not drift with the day it is read.
 */
export function checkFundingSchedule(text: string, today: string): ScheduleCheck {
  const parsed = parseScheduleText(text);
  if (!parsed.ok) return parsed;
  // Funding moves money once per event date: a rule firing several times a day would only cost
  // enumeration time (a MINUTELY rule is half a million instants a year).
  const subDaily = parsed.lines.find(
    (line) => line.name === "RRULE" && SUB_DAILY.includes(line.parts.get("FREQ") ?? ""),
  );
  if (subDaily)
    return {
      ok: false,
      message: `Funding happens at most once a day: FREQ must be DAILY or longer, not ${subDaily.parts.get("FREQ")}.`,
    };
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
