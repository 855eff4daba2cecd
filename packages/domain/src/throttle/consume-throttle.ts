import type { Database } from "@allot/db/create-database";
import { throttleCounters } from "@allot/db/schema/throttle-counters";
import { lt, sql } from "drizzle-orm";
import { Throttled } from "../shared/errors";
import { perDatabase } from "../shared/per-database";
import type { ThrottleRate } from "./throttle-rate";

export interface ThrottleCheck {
  /** Who is counted, e.g. `user:42` or `anon:127.0.0.1`. */
  key: string;
  rates: ThrottleRate[];
}

/**
 * Counts one request against every rate of every check, in one statement (fixed windows kept in
 * the database, so all API instances share them), and refuses it when any count is over its limit.
 */
export async function consumeThrottle(
  db: Database,
  checks: ThrottleCheck[],
  now = new Date(),
): Promise<void> {
  const nowSeconds = now.getTime() / 1000;
  const counters = new Map<string, { windowStart: number; limit: number; windowSeconds: number }>();
  for (const { key, rates } of checks) {
    for (const { limit, windowSeconds } of rates) {
      const counterKey = `${key}|${windowSeconds}`;
      const windowStart = Math.floor(nowSeconds / windowSeconds) * windowSeconds;
      const existing = counters.get(counterKey);
      if (!existing || existing.limit > limit)
        counters.set(counterKey, { windowStart, limit, windowSeconds });
    }
  }
  if (counters.size === 0) return;
  // Sorted, so concurrent upserts lock rows in one order and never deadlock.
  const rows = [...counters.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, c]) => ({
      key,
      windowStart: c.windowStart,
      hits: 1,
      expiresAt: new Date((c.windowStart + c.windowSeconds) * 1000),
    }));
  const counted = await throttleUpsert(db, rows.length).execute(
    Object.fromEntries(
      rows.flatMap((row, i) => [
        [`key${i}`, row.key],
        [`window${i}`, row.windowStart],
        [`expires${i}`, row.expiresAt],
      ]),
    ),
  );

  let retryAfter = 0;
  for (const { key, hits } of counted) {
    const counter = counters.get(key);
    if (counter && hits > counter.limit) {
      const wait = Math.ceil(counter.windowStart + counter.windowSeconds - nowSeconds);
      retryAfter = Math.max(retryAfter, wait, 1);
    }
  }
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

/** Drops counters of windows that have closed (a cron job). */
export async function deleteExpiredThrottleCounters(db: Database, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(throttleCounters)
    .where(lt(throttleCounters.expiresAt, now))
    .returning({ key: throttleCounters.key });
  return deleted.length;
}
