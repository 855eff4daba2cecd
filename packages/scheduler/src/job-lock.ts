import type { DatabaseHandle } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { sql } from "drizzle-orm";

/**
 * Runs `work` unless another process holds the job's advisory lock (then returns `skipped`).
 * The lock is taken and released on one pooled connection, pinned by an open transaction that
 * does nothing else; the work itself uses the pool. PGlite has a single process: it just runs.
 */
export async function withJobLock<T>(
  handle: DatabaseHandle,
  lockId: number,
  work: () => Promise<T>,
): Promise<{ skipped: true } | { skipped: false; result: T }> {
  if (handle.engine === "pglite") return { skipped: false, result: await work() };
  return handle.db.transaction(async (lockTx) => {
    const [row] = rowsOf<{ locked?: boolean }>(
      await lockTx.execute(sql`select pg_try_advisory_lock(${lockId}) as locked`),
    );
    if (!row?.locked) return { skipped: true } as const;
    try {
      return { skipped: false, result: await work() } as const;
    } finally {
      await lockTx.execute(sql`select pg_advisory_unlock(${lockId})`);
    }
  });
}
