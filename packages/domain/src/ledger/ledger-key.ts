/**
 * Where a change sits in an account's history: running balances of rows from this key on are
 * recomputed. Transactions are ordered by (transaction_date, created_at, id), transfers by
 * (effective_date, created_at, id); a key at or before the changed row is always safe.
 */
export interface LedgerKey {
  at: Date;
  createdAt: Date;
}

/** The earlier of two keys (either may be absent: absent means "from the beginning"). */
export function earliestKey(
  a: LedgerKey | null | undefined,
  b: LedgerKey | null | undefined,
): LedgerKey | null {
  if (!a || !b) return null;
  if (a.at.getTime() !== b.at.getTime()) return a.at < b.at ? a : b;
  return a.createdAt <= b.createdAt ? a : b;
}
