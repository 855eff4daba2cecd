import { rowsOf } from "@allot/db/rows-of";
import { changeCounters } from "@allot/db/schema/change-counters";
import { eq, sql } from "drizzle-orm";
import type { PublicContext } from "../shared/use-case-context";

// One statement deletes at most this many, so a first purge of a large backlog holds no long lock.
const BATCH = 5_000;

/**
 * Deletes tombstones older than the retention (a daily job) and raises each account's
 * `purged_through` (change_counters) to the newest number purged, in the same transaction: from then on a
 * cursor before it is 410 cursor_expired (docs/spec/extensions.md §2). Answers how many went.
 */
export async function purgeOldTombstones({ db, now }: PublicContext, retentionDays: number): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  let total = 0;
  for (;;) {
    const purged = await db.transaction(async (tx) => {
      const rows = rowsOf<{ account: string; through: string; n: number }>(
        await tx.execute(sql`
          with purged as (
            delete from change_tombstones where ctid in (
              select ctid from change_tombstones where deleted_at < ${cutoff.toISOString()}::timestamptz
              limit ${BATCH})
            returning bank_account_id, change_seq
          )
          select bank_account_id as account, max(change_seq)::text as through, count(*)::int as n
          from purged group by bank_account_id order by bank_account_id`),
      );
      // In id order, as every writer of several accounts locks them.
      for (const row of rows)
        await tx
          .update(changeCounters)
          .set({ purgedThrough: sql`greatest(${changeCounters.purgedThrough}, ${row.through}::bigint)` })
          .where(eq(changeCounters.bankAccountId, row.account));
      return rows.reduce((sum, row) => sum + row.n, 0);
    });
    total += purged;
    if (purged < BATCH) return total;
  }
}
