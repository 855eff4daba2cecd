import { ConfigurationError } from "@allot/logging/configuration-error";
import { Redis } from "ioredis";

const COMMAND_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 5_000;
const MAX_RECONNECT_DELAY_MS = 2_000;

interface RedisLog {
  info(message: string): void;
  error(message: string): void;
}

/** The URL without its password, for messages. */
function redactedRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparsable REDIS_URL)";
  }
}

/**
 * A Redis client for the throttle counters, not yet connected. A throttle check sits in front of
 * every request, so it fails fast: commands are never queued for later (no offline queue), one
 * that gets no answer fails after 1 s, and a lost connection is retried in the background (at
 * most every 2 s) meanwhile.
 */
export function createRedisClient(url: string): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
  });
  // Failures reach the caller of each command, and connectRedis logs outages: without a listener
  // ioredis would print every reconnection attempt's error.
  redis.on("error", () => {});
  return redis;
}

/**
 * Connects, or throws when Redis cannot be reached at start: like an unreachable DATABASE_URL, a
 * misconfigured REDIS_URL stops the server from starting. Later outages and recoveries are logged
 * once each, not per request.
 */
export async function connectRedis(redis: Redis, url: string, log: RedisLog): Promise<void> {
  const where = redactedRedisUrl(url);
  let state: "starting" | "up" | "down" = "starting";
  const lost = (reason: string) => {
    if (state !== "up") return;
    state = "down";
    log.error(`Redis at ${where} lost (${reason}): API requests get 503 until it is back`);
  };
  redis.on("error", (error: Error) => lost(error.message));
  redis.on("close", () => lost("connection closed"));
  redis.on("ready", () => {
    if (state !== "down") return;
    state = "up";
    log.info(`Redis at ${where} is back: requests are counted and served again`);
  });
  try {
    await redis.connect();
    await redis.ping();
    state = "up";
  } catch (error) {
    redis.disconnect();
    throw new ConfigurationError(
      `Redis at ${where} (REDIS_URL) is unreachable: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}
