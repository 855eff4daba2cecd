import { instantAtOffset, readDateTimeText } from "@allot/contract/http/fields";
import { atLocalTime, startOfLocalDay } from "./local-days";

/**
 * The instant a date-time text names in an account's calendar (its time zone): a bare
 * `YYYY-MM-DD` is the start of that local day, a time without an offset is that wall-clock time
 * there, and a text with an offset or `Z` names its instant wherever it is read. The text was
 * validated by the contract's dateTimeInput() or dateTimeFilter().
 */
export function instantOfText(text: string, timeZone: string): Date {
  const read = readDateTimeText(text);
  if (!read) throw new Error(`not a date-time: ${text}`);
  if (read.offsetMinutes !== null) return instantAtOffset(read, read.offsetMinutes);
  if (read.bare) return startOfLocalDay(read.day, timeZone);
  const [hour, minute, second, millisecond] = read.time.map((n) => String(n).padStart(2, "0"));
  return atLocalTime(read.day, `${hour}:${minute}:${second}.${millisecond?.padStart(3, "0")}`, timeZone);
}

/** True when reading the text needs a time zone: a bare date or a time without an offset. */
export const isLocalText = (text: string | undefined) =>
  text !== undefined && readDateTimeText(text)?.offsetMinutes === null;
