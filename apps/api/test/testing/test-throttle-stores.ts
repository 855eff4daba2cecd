import { randomBytes } from "node:crypto";
import type { DatabaseEngine } from "@allot/db/create-database";
import { describeOnServer } from "@allot/db/testing/server-suites";
import { testEngines } from "@allot/db/testing/test-databases";
import type { Redis } from "ioredis";
import { afterAll } from "vitest";
import { connectRedis, createRedisClient } from "../../src/throttle/redis-connection";
import { redisThrottleCounters } from "../../src/throttle/redis-throttle-store";
import type { ThrottleCounters } from "../../src/throttle/throttle-store";

export type ThrottleStoreKind = "database" | "redis";

/**
 * Every engine with the database store, and with the Redis store too when TEST_REDIS_URL names a
 * server (CI: redis://127.0.0.1:6379): `describe.each(testThrottleSetups())("… (%s, %s)", …)`.
 */
export function testThrottleSetups(): [DatabaseEngine, ThrottleStoreKind][] {
  const stores: ThrottleStoreKind[] = process.env.TEST_REDIS_URL ? ["database", "redis"] : ["database"];
  return testEngines().flatMap((engine) =>
    stores.map((store): [DatabaseEngine, ThrottleStoreKind] => [engine, store]),
  );
}

/** A suite that needs a Redis server: run with TEST_REDIS_URL, else declared and skipped with the reason. */
export function describeOnRedis(title: string, suite: (url: string) => void) {
  describeOnServer({ name: "Redis", variable: "TEST_REDIS_URL" }, title, suite);
}

/** Redis throttle counters under a key prefix of its own, whose keys are deleted after the tests. */
export function useTestRedisStore() {
  const url = process.env.TEST_REDIS_URL;
  const prefix = `allot-test:${randomBytes(6).toString("hex")}:`;
  let redis: Redis | null = null;
  afterAll(async () => {
    if (!redis) return;
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });
  return {
    async counters(): Promise<ThrottleCounters> {
      if (!url) throw new Error("the Redis throttle store needs TEST_REDIS_URL");
      redis = createRedisClient(url);
      await connectRedis(redis, url, { info: () => {}, error: () => {} });
      return redisThrottleCounters(redis, prefix);
    },
  };
}
