import dayjs from "dayjs";
import customParseFormat from "dayjs/plugin/customParseFormat.js";
import { UsageError } from "../output";
import { ValueProblem } from "./import-file-error";

dayjs.extend(customParseFormat);

export const DEFAULT_DATE_FORMAT = "YYYY-MM-DD";

/** A --date-format must name the year, the month and the day (dayjs tokens: YYYY, MM, M, MMM, DD, D). */
export function checkDateFormat(format: string): string {
  const tokens = format.replace(/\[[^\]]*\]/g, "");
  if (!/Y/.test(tokens) || !/M/.test(tokens) || !/D/.test(tokens))
    throw new UsageError(
      `--date-format '${format}' must contain a year, a month and a day, e.g. MM/DD/YYYY, DD.MM.YYYY, D MMM YYYY`,
      "invalid_date_format",
    );
  return format;
}

/**
 * A file's date as a bare YYYY-MM-DD, read strictly in the given format: "02/30/2024" and
 * "2024-1-5" for YYYY-MM-DD are refused rather than rolled over or guessed. A time, if the
 * format has one, is dropped: the bank's printed day is the statement day.
 */
export function parseDate(text: string, format: string): string {
  const value = text.trim();
  if (value === "") throw new ValueProblem("the date is empty");
  const date = dayjs(value, format, true);
  if (!date.isValid()) throw new ValueProblem(`'${value}' is not a date in the format ${format}`);
  return date.format("YYYY-MM-DD");
}
