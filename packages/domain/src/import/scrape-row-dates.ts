import { instantOfText } from "../calendar/instant-of-text";
import { atLocalTime, localDate, localTime, startOfLocalDay } from "../calendar/local-days";
import { transactionDateOf } from "./scrape-transaction-date";

const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface ScrapeRowDates {
  /** The posted instant. */
  postedAt: Date;
  /** The posted date's day in the account's time zone. */
  postedDay: string;
  /** The purchase day: the description's MM/DD when plausible, else postedDay. */
  transactionDay: string;
  /** The transaction instant: the posted instant's local time of day, on transactionDay. */
  transactionAt: Date;
}

/**
 * A scraped row's dates in the account's calendar. A bare `YYYY-MM-DD` posted date is the start of
 * that local day (importers anchor statement dates in the user's time zone, so the day a bank
 * prints stays that day); a date-time is read as the instant it names (see instantOfText).
 */
export function scrapeRowDates(postedText: string, rawDescription: string, timeZone: string): ScrapeRowDates {
  const bare = BARE_DATE.test(postedText);
  const postedAt = instantOfText(postedText, timeZone);
  const postedDay = bare ? postedText : localDate(postedAt, timeZone);
  const transactionDay = transactionDateOf(rawDescription, postedDay);
  if (transactionDay === postedDay) return { postedAt, postedDay, transactionDay, transactionAt: postedAt };
  // The purchase day at the posted instant's wall-clock time (a day's start for a bare date):
  // the same local time, even when one of the two days is 23 or 25 hours long.
  const transactionAt = bare
    ? startOfLocalDay(transactionDay, timeZone)
    : atLocalTime(transactionDay, localTime(postedAt, timeZone), timeZone);
  return { postedAt, postedDay, transactionDay, transactionAt };
}
