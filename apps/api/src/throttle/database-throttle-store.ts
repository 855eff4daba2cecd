import type { Database } from "@allot/db/create-database";
import { perDatabase } from "@allot/db/per-database";
import { throttleCounters } from "@allot/db/schema/throttle-counters";
import type { ThrottleWindow } from "@allot/domain/throttle/throttle-windows";
import { and, eq, or, sql } from "drizzle-orm";
import type { ThrottleCounters, ThrottleUsage, WindowHits } from "./throttle-store";

/**
 * Adds to every window's counter in one statement (fixed windows kept in the database, so all API
 * instances share them) and returns the counts.
 */
async function addHits(db: Database, increments: WindowHits[], now: Date): Promise<ThrottleUsage> {
  if (increments.length === 0) return { counters: [], at: now };
  // Sorted by key (throttleWindows), so concurrent upserts lock rows in one order and never deadlock.
  const counted = await throttleUpsert(db, increments.length).execute(
    Object.fromEntries(
      increments.flatMap(({ window, hits }, i) => [
        [`key${i}`, window.key],
        [`window${i}`, window.windowStart],
        [`hits${i}`, hits],
        [`expires${i}`, new Date((window.windowStart + window.windowSeconds) * 1000)],
      ]),
    ),
  );
  const hits = new Map(counted.map((row) => [row.key, row.hits]));
  return { counters: increments.map(({ window }) => ({ window, hits: hits.get(window.key) ?? 0 })), at: now };
}

/** The current counts of the windows, counting nothing. */
async function readHits(db: Database, windows: ThrottleWindow[], now: Date): Promise<ThrottleUsage> {
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

// The upsert runs for most requests: prepared once per database handle and number of counters.
const buildThrottleUpsert = (db: Database, size: number) =>
  db
    .insert(throttleCounters)
    .values(
      Array.from({ length: size }, (_, i) => ({
        key: sql.placeholder(`key${i}`),
        windowStart: sql.placeholder(`window${i}`),
        hits: sql.placeholder(`hits${i}`),
        expiresAt: sql.placeholder(`expires${i}`),
      })),
    )
    .onConflictDoUpdate({
      target: [throttleCounters.key, throttleCounters.windowStart],
      set: { hits: sql`${throttleCounters.hits} + excluded.hits` },
    })
    .returning({ key: throttleCounters.key, hits: throttleCounters.hits })
    .prepare(`throttle_upsert_${size}`);

const throttleUpsert = perDatabase(buildThrottleUpsert);

// Read before some authentications and logins: prepared like the upsert.
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
export const databaseThrottleCounters = (db: Database): ThrottleCounters => ({
  add: (increments, now) => addHits(db, increments, now),
  read: (windows, now) => readHits(db, windows, now),
});
