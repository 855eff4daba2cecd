import type { Database } from "@allot/db/create-database";
import { throttleCounters } from "@allot/db/schema/throttle-counters";
import { and, eq, lt, or, sql } from "drizzle-orm";
import { Throttled } from "../shared/errors";
import { perDatabase } from "../shared/per-database";
import type { PublicContext } from "../shared/use-case-context";
import { retryAfterSeconds, type ThrottleCheck, throttleWindows } from "./throttle-windows";

/**
 * Counts one request against every rate of every check, in one statement (fixed windows kept in
 * the database, so all API instances share them), and refuses it when any count is over its limit.
 */
export async function consumeThrottle(
  db: Database,
  checks: ThrottleCheck[],
  now = new Date(),
): Promise<void> {
  const retryAfter = await countThrottle(db, checks, now);
  if (retryAfter > 0) throw new Throttled(retryAfter);
}

/**
 * Counts one event (a failed login, a failed authentication) without refusing anything: the
 * event has already been answered. Returns the seconds a request would now have to wait (0: none).
 */
export async function countThrottle(
  db: Database,
  checks: ThrottleCheck[],
  now = new Date(),
): Promise<number> {
  // Sorted by key, so concurrent upserts lock rows in one order and never deadlock.
  const windows = throttleWindows(checks, now);
  if (windows.length === 0) return 0;
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
  return retryAfterSeconds(windows, (window) => hits.get(window.key) ?? 0, now);
}

/**
 * Refuses (`Throttled`) when a check has used up its limit in the current window, counting
 * nothing: for work that is counted only when it fails, and refused once failures reach the limit.
 */
export async function refuseExhaustedThrottle(
  db: Database,
  checks: ThrottleCheck[],
  now = new Date(),
): Promise<void> {
  const windows = throttleWindows(checks, now);
  if (windows.length === 0) return;
  const rows = await throttleRead(db, windows.length).execute(
    Object.fromEntries(
      windows.flatMap((window, i) => [
        [`key${i}`, window.key],
        [`window${i}`, window.windowStart],
      ]),
    ),
  );
  const hits = new Map(rows.map((row) => [row.key, row.hits]));
  // Exhausted: one more would be over the limit.
  const retryAfter = retryAfterSeconds(windows, (window) => (hits.get(window.key) ?? 0) + 1, now);
  if (retryAfter > 0) throw new Throttled(retryAfter);
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

/** Drops counters of windows that have closed (a cron job). */
export async function deleteExpiredThrottleCounters({ db, now }: PublicContext): Promise<number> {
  const deleted = await db
    .delete(throttleCounters)
    .where(lt(throttleCounters.expiresAt, now))
    .returning({ key: throttleCounters.key });
  return deleted.length;
}
