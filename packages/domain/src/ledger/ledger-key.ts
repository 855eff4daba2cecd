/**
 * Where a change sits in an account's history: running balances of rows from this key on are
 * recomputed. Transactions are ordered by (transaction_date, created_at, id), transfers by
 * (effective_date, created_at, id); a key at or before the changed row is always safe.
 */
export interface LedgerKey {
  at: Date;
  createdAt: Date;
}

/** Before every row of an account: a refresh from it recomputes the whole history. */
export const FROM_THE_START: LedgerKey = Object.freeze({
  at: new Date(-8.64e15),
  createdAt: new Date(-8.64e15),
});

/**
 * The earlier of two keys. A missing key is no change at all (the other one wins, and none stays
 * none); a change to the whole history is FROM_THE_START, which is earlier than any other key.
 */
export function minKey(a: LedgerKey | undefined, b: LedgerKey | undefined): LedgerKey | undefined {
  if (!a || !b) return a ?? b;
  if (a.at.getTime() !== b.at.getTime()) return a.at < b.at ? a : b;
  return a.createdAt <= b.createdAt ? a : b;
}
