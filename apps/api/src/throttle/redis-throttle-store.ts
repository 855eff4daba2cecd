import { createHash } from "node:crypto";
import {
  type ThrottleCheck,
  type ThrottleWindow,
  throttleWindows,
} from "@allot/domain/throttle/throttle-windows";
import type { Redis } from "ioredis";
import {
  refuseOverLimit,
  type ThrottleStore,
  ThrottleStoreUnavailable,
  type ThrottleUsage,
} from "./throttle-store";

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

  /** Counts one hit on every window, in one round trip; the counts. */
  async function count(checks: ThrottleCheck[], now: Date): Promise<ThrottleUsage> {
    const windows = throttleWindows(checks, now);
    if (windows.length === 0) return { counters: [], at: now };
    const expiries = windows.map(
      (window) => (window.windowStart + window.windowSeconds) * 1000 - now.getTime() + EXPIRY_SLACK_MS,
    );
    let counts: number[];
    try {
      counts = await countHits(redis, windows.map(keyOf), expiries);
    } catch (error) {
      throw new ThrottleStoreUnavailable("Redis", error);
    }
    return { counters: windows.map((window, i) => ({ window, hits: counts[i] ?? 0 })), at: now };
  }

  return {
    consume: async (checks, now = new Date()) => refuseOverLimit(await count(checks, now)),
    record: (checks, now = new Date()) => count(checks, now),
    async refuseIfExhausted(checks, now = new Date()) {
      const windows = throttleWindows(checks, now);
      if (windows.length === 0) return { counters: [], at: now };
      let counts: (string | null)[];
      try {
        counts = await redis.mget(...windows.map(keyOf));
      } catch (error) {
        throw new ThrottleStoreUnavailable("Redis", error);
      }
      const usage = {
        counters: windows.map((window, i) => ({ window, hits: Number(counts[i] ?? 0) })),
        at: now,
      };
      // Exhausted: one more would be over the limit.
      return refuseOverLimit(usage, 1);
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
