import type { StatementRow } from "./statement";

/** The calendar day of a posted date (bare date or date-time): its first ten characters. */
const dayOf = (row: StatementRow) => row.posted_date.slice(0, 10);

/**
 * Rows newest first, as sync-scrape wants them. Files list them either way: one whose first row
 * is older than its last is read as oldest first and reversed whole, so rows of one day keep the
 * bank's order between them (the server reproduces it); a file with one date throughout is taken
 * as oldest first, the usual order of statement exports. A stable sort by day then puts any row
 * listed out of place where its date says.
 */
export function newestFirst(rows: readonly StatementRow[]): StatementRow[] {
  const first = rows[0];
  const last = rows[rows.length - 1];
  const oldestFirst = first !== undefined && last !== undefined && dayOf(first) <= dayOf(last);
  const ordered = oldestFirst ? [...rows].reverse() : [...rows];
  return ordered.sort((a, b) => (dayOf(a) < dayOf(b) ? 1 : dayOf(a) > dayOf(b) ? -1 : 0));
}
