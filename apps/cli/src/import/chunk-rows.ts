import { dayNumberOf, transactionDateOf } from "@allot/domain/import/scrape-transaction-date";
import { UsageError } from "../output";
import type { StatementRow } from "./statement";

export interface ChunkLimits {
  rows: number;
  /** JSON bytes of the rows of one request (the server refuses bodies over 5 MB). */
  bytes: number;
}

/** One sync of a file sent in several. */
export interface Chunk {
  /** Newest first: this sync's own rows, then `overlap` rows already sent by an earlier sync. */
  rows: StatementRow[];
  /** How many rows at the end of `rows` are re-sent from earlier syncs (they match themselves). */
  overlap: number;
}

/**
 * The server's transaction day of a row (the description's MM/DD when plausible, else the posted
 * day), and how far off it may be: a date-time's day depends on the account's time zone.
 */
function dayOf(row: StatementRow): { day: number; spread: number } {
  const postedDay = row.posted_date.slice(0, 10);
  return {
    day: dayNumberOf(transactionDateOf(row.raw_description, postedDay)),
    spread: row.posted_date.length > 10 ? 1 : 0,
  };
}

/**
 * Newest-first rows as syncs to send oldest first, each within the limits.
 *
 * Why the overlap: the server de-duplicates posted rows against stored ones within a day, while two
 * identical rows of one payload are two purchases. Split across two syncs, the daily coffee of the
 * 2nd would be skipped as a duplicate of the 1st's. So each later sync re-sends, at its old end,
 * every earlier row from a day before its own oldest transaction day onwards: the server reads rows
 * oldest first and tries the same day first, so each re-sent row takes its own stored twin, and the
 * new rows meet exactly what one big payload would have met. Pending rows all go in the last sync
 * (every sync deletes the account's pending rows).
 */
export function chunkRows(rows: readonly StatementRow[], limits: ChunkLimits): Chunk[] {
  const oldest = [...rows].reverse();
  const days = oldest.map((row) => (row.is_pending ? null : dayOf(row)));
  const bytes = oldest.map((row) => Buffer.byteLength(JSON.stringify(row)) + 1);
  const firstPending = oldest.findIndex((row) => row.is_pending);
  const lastStart = firstPending < 0 ? oldest.length : firstPending;

  /** Earlier posted rows (before `start`) that a row from `start` to `end` could match. */
  const overlapOf = (start: number, end: number): number[] => {
    let from = Number.POSITIVE_INFINITY;
    for (let i = start; i < end; i++) {
      const d = days[i];
      if (d) from = Math.min(from, d.day - d.spread);
    }
    // The day before (a new row also tries it), whole days, so every stored twin is re-sent; a
    // date-time's spread widens both ends.
    const threshold = from - 1;
    const found: number[] = [];
    for (let i = 0; i < start; i++) {
      const d = days[i];
      if (d && d.day + d.spread >= threshold) found.push(i);
    }
    return found;
  };

  const chunks: Chunk[] = [];
  let start = 0;
  while (start < oldest.length) {
    let end = start;
    let size = 0;
    while (end < oldest.length && end - start < limits.rows && size + (bytes[end] ?? 0) <= limits.bytes) {
      size += bytes[end] ?? 0;
      end++;
    }
    let overlap: number[];
    for (;;) {
      // Pending rows only ever in the last sync: a sync that leaves rows for later ends before them.
      if (end < oldest.length && end > lastStart) end = lastStart;
      if (end <= start)
        throw new UsageError(
          `line ${oldest[start]?.line}: the rows from here cannot be sent within the limits of one sync (${limits.rows} rows, ${limits.bytes} bytes of rows${start >= lastStart ? ", pending rows all in one sync" : ""})`,
          "cannot_split",
        );
      overlap = overlapOf(start, end);
      const excess = end - start + overlap.length - limits.rows;
      if (excess <= 0 && sumBytes(bytes, [start, end], overlap) <= limits.bytes) break;
      // Make room for the re-sent rows.
      end -= excess > 0 ? excess : Math.ceil((end - start) / 20);
    }
    chunks.push({
      rows: [
        ...oldest.slice(start, end).reverse(),
        ...overlap.map((i) => oldest[i] as StatementRow).reverse(),
      ],
      overlap: overlap.length,
    });
    start = end;
  }
  return chunks;
}

const sumBytes = (bytes: readonly number[], [from, to]: [number, number], more: readonly number[]) => {
  let sum = 0;
  for (let i = from; i < to; i++) sum += bytes[i] ?? 0;
  for (const i of more) sum += bytes[i] ?? 0;
  return sum;
};
