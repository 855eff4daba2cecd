import { formatMoney } from "@allot/contract/money";
import { dayNumberOf } from "./scrape-transaction-date";

/** What two rows are compared on. `transactionDate` is YYYY-MM-DD, `amount` a decimal string. */
export interface DuplicateKey {
  transactionDate: string;
  amount: string;
  rawDescription: string;
}

// Below this many characters before "...", a truncated description ("A...") would match far too
// much; such a description only matches its exact same text.
const MIN_TRUNCATED_PREFIX = 8;

const ELLIPSIS = "...";
// Which days are tried, in order: the same day first, so the closest candidate is consumed.
const DAY_OFFSETS = [0, -1, 1] as const;

interface Description {
  text: string;
  /** The part before "..." when the description is usefully truncated, else null. */
  prefix: string | null;
}

interface Entry<T> {
  row: T;
  description: Description;
  /** Added from the payload being imported: matches truncated forms only, never an exact twin. */
  fromPayload: boolean;
}

/**
 * Whitespace is collapsed and trimmed (scrapers pad and wrap differently); case is kept, because a
 * bank prints one transaction the same way every time and folding case only adds false matches.
 */
const describe = (raw: string): Description => {
  const text = raw.replace(/\s+/g, " ").trim();
  if (!text.endsWith(ELLIPSIS)) return { text, prefix: null };
  const prefix = text.slice(0, -ELLIPSIS.length).trimEnd();
  return { text, prefix: prefix.length >= MIN_TRUNCATED_PREFIX ? prefix : null };
};

const sameText = (a: Description, b: Description) => a.text === b.text;

// Either side may be the truncated one; two truncated forms match when one prefix extends the other.
const truncationOf = (a: Description, b: Description) =>
  (a.prefix !== null && b.text.startsWith(a.prefix)) || (b.prefix !== null && a.text.startsWith(b.prefix));

// "-0" and "0.00" are one amount: key on the wire's two-decimal text. Canonical text (the
// database's, or a payload's once parsed) is its own key, not parsed: thousands of amounts parsed
// as Big for nothing cost a tenth of a second.
const amountKey = (amount: string) => formatMoney(amount);

const bucketKey = (amount: string, day: number) => `${amount}|${day}`;

export interface DuplicateFinder<T extends DuplicateKey> {
  /** The stored row this one duplicates, consumed so it cannot match another incoming row. */
  find(row: DuplicateKey): T | undefined;
  /** A row just inserted from the payload, so a later truncated/full form of it is caught. */
  add(row: T): void;
}

/**
 * Duplicates share the amount (as money), a transaction date within one day, and the raw
 * description (or a truncated form of it). Rows are bucketed by (amount, day), so a lookup reads
 * three small buckets whatever the number of stored rows. Within a bucket an exact description is
 * preferred to a truncated one; each stored row matches at most one incoming row.
 */
export function createDuplicateFinder<T extends DuplicateKey>(stored: Iterable<T>): DuplicateFinder<T> {
  const buckets = new Map<string, Entry<T>[]>();

  const put = (row: T, fromPayload: boolean) => {
    const key = bucketKey(amountKey(row.amount), dayNumberOf(row.transactionDate));
    const entry: Entry<T> = { row, description: describe(row.rawDescription), fromPayload };
    const bucket = buckets.get(key);
    if (bucket) bucket.push(entry);
    else buckets.set(key, [entry]);
  };

  for (const row of stored) put(row, false);

  const take = (bucket: Entry<T>[], accepts: (entry: Entry<T>) => boolean): T | undefined => {
    const at = bucket.findIndex(accepts);
    if (at < 0) return undefined;
    const [entry] = bucket.splice(at, 1);
    return entry?.row;
  };

  return {
    find(row) {
      const amount = amountKey(row.amount);
      const day = dayNumberOf(row.transactionDate);
      const description = describe(row.rawDescription);
      for (const offset of DAY_OFFSETS) {
        const bucket = buckets.get(bucketKey(amount, day + offset));
        if (!bucket) continue;
        // Two identical purchases in one payload are two purchases: payload rows match only a
        // truncated or full form of themselves, never an exact twin.
        const found =
          take(bucket, (e) => !e.fromPayload && sameText(e.description, description)) ??
          take(
            bucket,
            (e) => !sameText(e.description, description) && truncationOf(e.description, description),
          );
        if (found) return found;
      }
      return undefined;
    },
    add(row) {
      put(row, true);
    },
  };
}
