import { createHash } from "node:crypto";
import { Throttled } from "@allot/domain/shared/errors";
import {
  retryAfterSeconds,
  type ThrottleCheck,
  type ThrottleWindow,
  throttleWindows,
} from "@allot/domain/throttle/throttle-windows";
import type { Redis } from "ioredis";
import { type ThrottleStore, ThrottleStoreUnavailable } from "./throttle-store";

// Every counter of a request in one atomic round trip: INCR each key, and give a key its expiry
// (the end of its window, in ms, ARGV[i]) when this request created it. Returns the counts in
// KEYS order.
const COUNT_SCRIPT = `
local counts = {}
for i, key in ipairs(KEYS) do
  local hits = redis.call('INCR', key)
  if hits == 1 then redis.call('PEXPIRE', key, ARGV[i]) end
  counts[i] = hits
end
return counts
`;
const COUNT_SCRIPT_SHA = createHash("sha1").update(COUNT_SCRIPT).digest("hex");

// A counter outlives its window by this much: instances whose clocks differ slightly still count
// a window's last requests in it, and nothing reads a closed window's key anyway.
const EXPIRY_SLACK_MS = 5_000;

/**
 * Throttle counters in Redis: the same fixed windows as the database store (see throttle-windows),
 * one key per counter and window (`<prefix><caller>|<window seconds>|<window start>`; the prefix is
 * REDIS_KEY_PREFIX), expiring
 * when the window closes. Any Redis failure (down, unreachable, too slow) is a
 * `ThrottleStoreUnavailable`: the request is refused with 503, never let through uncounted.
 */
export function redisThrottleStore(redis: Redis, prefix: string): ThrottleStore {
  const keyOf = (window: ThrottleWindow) => `${prefix}${window.key}|${window.windowStart}`;

  /** Counts one hit on every window; the seconds to wait when one is now over its limit. */
  async function count(checks: ThrottleCheck[], now: Date): Promise<number> {
    const windows = throttleWindows(checks, now);
    if (windows.length === 0) return 0;
    const expiries = windows.map(
      (window) => (window.windowStart + window.windowSeconds) * 1000 - now.getTime() + EXPIRY_SLACK_MS,
    );
    let counts: number[];
    try {
      counts = await countHits(redis, windows.map(keyOf), expiries);
    } catch (error) {
      throw new ThrottleStoreUnavailable("Redis", error);
    }
    const hits = new Map(windows.map((window, i) => [window, counts[i] ?? 0]));
    return retryAfterSeconds(windows, (window) => hits.get(window) ?? 0, now);
  }

  return {
    async consume(checks, now = new Date()) {
      const retryAfter = await count(checks, now);
      if (retryAfter > 0) throw new Throttled(retryAfter);
    },
    async record(checks, now = new Date()) {
      await count(checks, now);
    },
    async refuseIfExhausted(checks, now = new Date()) {
      const windows = throttleWindows(checks, now);
      if (windows.length === 0) return;
      let counts: (string | null)[];
      try {
        counts = await redis.mget(...windows.map(keyOf));
      } catch (error) {
        throw new ThrottleStoreUnavailable("Redis", error);
      }
      const hits = new Map(windows.map((window, i) => [window, Number(counts[i] ?? 0)]));
      // Exhausted: one more would be over the limit.
      const retryAfter = retryAfterSeconds(windows, (window) => (hits.get(window) ?? 0) + 1, now);
      if (retryAfter > 0) throw new Throttled(retryAfter);
    },
  };
}

/** EVALSHA (the script is cached by the server); EVAL once when the server does not know it yet. */
async function countHits(redis: Redis, keys: string[], expiries: number[]): Promise<number[]> {
  const args = [...keys, ...expiries.map((ms) => Math.max(1, Math.ceil(ms)))];
  try {
    return (await redis.evalsha(COUNT_SCRIPT_SHA, keys.length, ...args)) as number[];
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
    return (await redis.eval(COUNT_SCRIPT, keys.length, ...args)) as number[];
  }
}
