import { createDuplicateFinder } from "./scrape-duplicates";

/** A payload row with its dates worked out (scrape-row-dates), and its position in the payload. */
export interface PlannedScrapeRow {
  index: number;
  pending: boolean;
  amount: string;
  rawDescription: string;
  transactionDay: string;
  postedDay: string;
}

/** A transaction a posted payload row stands for: a stored one, or one this sync inserts. */
export interface ScrapeMatch {
  id: string;
  hasDetails: boolean;
}

/** A stored posted row within a day of the payload's dates. */
export interface StoredScrapeRow extends ScrapeMatch {
  transactionDate: string;
  amount: string;
  rawDescription: string;
}

export interface ScrapeSyncPlan<R extends PlannedScrapeRow> {
  /** Rows to insert with their new ids, oldest first (reversed payload order): the newest is created last. */
  inserts: { id: string; row: R }[];
  /** Payload index of each skipped posted row → the transaction it duplicates. */
  skipped: Map<number, ScrapeMatch>;
  /** The latest posted day of the payload, null when it has no posted row. */
  lastPostedDay: string | null;
}

/**
 * Which rows of a scrape (newest first) are new. Pending rows are always new (the stored pending
 * rows are replaced). Posted rows are read oldest first: each either duplicates a stored row
 * (consumed, so two identical purchases need two stored rows) or is inserted, and then a later
 * truncated or full form of it within the same payload is its duplicate too.
 */
export function planScrapeSync<R extends PlannedScrapeRow>(
  rows: readonly R[],
  stored: readonly StoredScrapeRow[],
  newId: () => string,
): ScrapeSyncPlan<R> {
  const finder = createDuplicateFinder<StoredScrapeRow>(stored);
  const inserts: { id: string; row: R }[] = [];
  const skipped = new Map<number, ScrapeMatch>();
  let lastPostedDay: string | null = null;

  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i] as R;
    if (row.pending) {
      inserts.push({ id: newId(), row });
      continue;
    }
    if (lastPostedDay === null || row.postedDay > lastPostedDay) lastPostedDay = row.postedDay;
    const key = {
      transactionDate: row.transactionDay,
      amount: row.amount,
      rawDescription: row.rawDescription,
    };
    const duplicate = finder.find(key);
    if (duplicate) {
      skipped.set(row.index, { id: duplicate.id, hasDetails: duplicate.hasDetails });
      continue;
    }
    const id = newId();
    inserts.push({ id, row });
    finder.add({ ...key, id, hasDetails: false });
  }
  return { inserts, skipped, lastPostedDay };
}
