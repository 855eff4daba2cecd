// Banks print the purchase date ("… 12/30 …") in the description; the posted date can lag it by
// days. The purchase date is what the user recognises, so it wins when it is plausible.

const LOOKBACK_DAYS = 7;
const MS_PER_DAY = 24 * 60 * 60 * 1000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// Exactly two digits each side, not glued to other digits or slashes: "REF 12/345", "1234/5678"
// and full dates such as "12/25/2024" are not a bare MM/DD.
const MONTH_DAY = /(?<![\d/])(\d{2})\/(\d{2})(?![\d/])/g;

/** Days since 1970-01-01 of a real calendar date, or null when the day does not exist. */
const dayNumber = (year: number, month: number, day: number): number | null => {
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  // Date.UTC rolls 02/30 over to 03/02; a rolled date is not a date.
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return ms / MS_PER_DAY;
};

/** Days since 1970-01-01 of a YYYY-MM-DD text; throws on anything else (callers pass validated dates). */
export const dayNumberOf = (isoDate: string): number => {
  const parts = ISO_DATE.exec(isoDate);
  const day = parts ? dayNumber(Number(parts[1]), Number(parts[2]), Number(parts[3])) : null;
  if (day === null) throw new TypeError(`not a YYYY-MM-DD date: ${isoDate}`);
  return day;
};

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * The transaction date of a scraped row: the first `MM/DD` in the description (reading left to
 * right) that is a real day within the 7 days up to and including the posted date; otherwise the
 * posted date. MM/DD takes the posted date's year, or the year before when it is later in the
 * year than the posted date (a December purchase posted in January).
 */
export function transactionDateOf(rawDescription: string, postedDate: string): string {
  const posted = dayNumberOf(postedDate);
  const postedYear = Number(postedDate.slice(0, 4));
  const postedMonthDay = postedDate.slice(5, 10).replace("-", "/");
  for (const match of rawDescription.matchAll(MONTH_DAY)) {
    const [text, mm, dd] = match;
    // "MM/DD" strings compare in calendar order, so this is "after the posted month/day".
    const year = text > postedMonthDay ? postedYear - 1 : postedYear;
    const day = dayNumber(year, Number(mm), Number(dd));
    if (day !== null && day <= posted && posted - day <= LOOKBACK_DAYS) {
      return `${year}-${pad(Number(mm))}-${pad(Number(dd))}`;
    }
  }
  return postedDate;
}
