import type { Database } from "@allot/db/create-database";
import { perDatabase } from "@allot/db/per-database";
import { throttleCounters } from "@allot/db/schema/throttle-counters";
import { type ThrottleCheck, throttleWindows } from "@allot/domain/throttle/throttle-windows";
import { and, eq, or, sql } from "drizzle-orm";
import { refuseOverLimit, type ThrottleStore, type ThrottleUsage } from "./throttle-store";

/**
 * Counts one hit on every rate of every check, in one statement (fixed windows kept in the
 * database, so all API instances share them), and returns the counts.
 */
async function countThrottle(
  db: Database,
  checks: ThrottleCheck[],
  now = new Date(),
): Promise<ThrottleUsage> {
  // Sorted by key, so concurrent upserts lock rows in one order and never deadlock.
  const windows = throttleWindows(checks, now);
  if (windows.length === 0) return { counters: [], at: now };
  const counted = await throttleUpsert(db, windows.length).execute(
    Object.fromEntries(
      windows.flatMap((window, i) => [
        [`key${i}`, window.key],
        [`window${i}`, window.windowStart],
        [`expires${i}`, new Date((window.windowStart + window.windowSeconds) * 1000)],
      ]),
    ),
  );
  const hits = new Map(counted.map((row) => [row.key, row.hits]));
  return { counters: windows.map((window) => ({ window, hits: hits.get(window.key) ?? 0 })), at: now };
}

/** The current counts of every check, counting nothing. */
async function readThrottle(db: Database, checks: ThrottleCheck[], now = new Date()): Promise<ThrottleUsage> {
  const windows = throttleWindows(checks, now);
  if (windows.length === 0) return { counters: [], at: now };
  const rows = await throttleRead(db, windows.length).execute(
    Object.fromEntries(
      windows.flatMap((window, i) => [
        [`key${i}`, window.key],
        [`window${i}`, window.windowStart],
      ]),
    ),
  );
  const hits = new Map(rows.map((row) => [row.key, row.hits]));
  return { counters: windows.map((window) => ({ window, hits: hits.get(window.key) ?? 0 })), at: now };
}

// The upsert runs on every request: prepared once per database handle and number of counters.
const buildThrottleUpsert = (db: Database, size: number) =>
  db
    .insert(throttleCounters)
    .values(
      Array.from({ length: size }, (_, i) => ({
        key: sql.placeholder(`key${i}`),
        windowStart: sql.placeholder(`window${i}`),
        hits: 1,
        expiresAt: sql.placeholder(`expires${i}`),
      })),
    )
    .onConflictDoUpdate({
      target: [throttleCounters.key, throttleCounters.windowStart],
      set: { hits: sql`${throttleCounters.hits} + 1` },
    })
    .returning({ key: throttleCounters.key, hits: throttleCounters.hits })
    .prepare(`throttle_upsert_${size}`);

const throttleUpsert = perDatabase(buildThrottleUpsert);

// Read before every authentication: prepared like the upsert.
const buildThrottleRead = (db: Database, size: number) =>
  db
    .select({ key: throttleCounters.key, hits: throttleCounters.hits })
    .from(throttleCounters)
    .where(
      or(
        ...Array.from({ length: size }, (_, i) =>
          and(
            eq(throttleCounters.key, sql.placeholder(`key${i}`)),
            eq(throttleCounters.windowStart, sql.placeholder(`window${i}`)),
          ),
        ),
      ),
    )
    .prepare(`throttle_read_${size}`);

const throttleRead = perDatabase(buildThrottleRead);

/**
 * Counters in the `throttle_counters` table: every instance on one database shares them. A lost
 * database fails the request the way any other database fault does.
 */
export const databaseThrottleStore = (db: Database): ThrottleStore => ({
  consume: async (checks, now) => refuseOverLimit(await countThrottle(db, checks, now)),
  record: (checks, now) => countThrottle(db, checks, now),
  // Exhausted: one more would be over the limit.
  refuseIfExhausted: async (checks, now) => refuseOverLimit(await readThrottle(db, checks, now), 1),
});
