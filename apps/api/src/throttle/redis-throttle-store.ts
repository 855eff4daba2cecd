import { createHash } from "node:crypto";
import type { ThrottleWindow } from "@allot/domain/throttle/throttle-windows";
import type { Redis } from "ioredis";
import {
  type CountingThrottleStore,
  exactThrottleStore,
  type ThrottleCounters,
  ThrottleStoreUnavailable,
} from "./throttle-store";

// Every counter of a request in one atomic round trip: INCRBY each key (KEYS[i]) by its hits
// (ARGV[n + i]), and give a key its expiry (the end of its window, in ms, ARGV[i]) when this call
// created it. Returns the counts in KEYS order.
const COUNT_SCRIPT = `
local n = #KEYS
local counts = {}
for i, key in ipairs(KEYS) do
  local added = tonumber(ARGV[n + i])
  local hits = redis.call('INCRBY', key, added)
  if hits == added then redis.call('PEXPIRE', key, ARGV[i]) end
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
 * REDIS_KEY_PREFIX), expiring when the window closes. Any Redis failure (down, unreachable, too
 * slow) is a `ThrottleStoreUnavailable`: the request is refused with 503, never let through uncounted.
 */
export function redisThrottleCounters(redis: Redis, prefix: string): ThrottleCounters {
  const keyOf = (window: ThrottleWindow) => `${prefix}${window.key}|${window.windowStart}`;
  return {
    async add(increments, now) {
      if (increments.length === 0) return { counters: [], at: now };
      const expiries = increments.map(
        ({ window }) => (window.windowStart + window.windowSeconds) * 1000 - now.getTime() + EXPIRY_SLACK_MS,
      );
      let counts: number[];
      try {
        counts = await countHits(
          redis,
          increments.map(({ window }) => keyOf(window)),
          expiries,
          increments.map(({ hits }) => hits),
        );
      } catch (error) {
        throw new ThrottleStoreUnavailable("Redis", error);
      }
      return { counters: increments.map(({ window }, i) => ({ window, hits: counts[i] ?? 0 })), at: now };
    },
    async read(windows, now) {
      if (windows.length === 0) return { counters: [], at: now };
      let counts: (string | null)[];
      try {
        counts = await redis.mget(...windows.map(keyOf));
      } catch (error) {
        throw new ThrottleStoreUnavailable("Redis", error);
      }
      return { counters: windows.map((window, i) => ({ window, hits: Number(counts[i] ?? 0) })), at: now };
    },
  };
}

/** Every request counted in Redis as it comes. */
export const redisThrottleStore = (redis: Redis, prefix: string): CountingThrottleStore =>
  exactThrottleStore(redisThrottleCounters(redis, prefix));

/** EVALSHA (the script is cached by the server); EVAL once when the server does not know it yet. */
async function countHits(
  redis: Redis,
  keys: string[],
  expiries: number[],
  hits: number[],
): Promise<number[]> {
  const args = [...keys, ...expiries.map((ms) => Math.max(1, Math.ceil(ms))), ...hits];
  try {
    return (await redis.evalsha(COUNT_SCRIPT_SHA, keys.length, ...args)) as number[];
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
    return (await redis.eval(COUNT_SCRIPT, keys.length, ...args)) as number[];
  }
}
