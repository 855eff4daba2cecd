import { throttleCounters } from "@allot/db/schema/throttle-counters";
import { like } from "drizzle-orm";
import { expect, it } from "vitest";
import { connectRedis, createRedisClient } from "../../src/throttle/redis-connection";
import { type ApiPair, LIMITS, type ThrottleStoreKind } from "./api-pair";
import { logIn, login, me, newUser } from "./http-calls";

interface Tally {
  allowed: number;
  refused: number;
  /** Allowed answers per instance: both served some. */
  allowedOn: { a: number; b: number };
}

/** `count` requests alternating between the two instances (a, b, a, …), sequentially. */
async function alternate(
  pair: ApiPair,
  count: number,
  request: (base: string) => Promise<Response>,
  allowedStatus: number,
): Promise<Tally> {
  const tally: Tally = { allowed: 0, refused: 0, allowedOn: { a: 0, b: 0 } };
  for (let i = 0; i < count; i++) {
    const on = i % 2 === 0 ? "a" : "b";
    const response = await request(pair[on].base);
    await response.arrayBuffer();
    if (response.status === allowedStatus) {
      tally.allowed += 1;
      tally.allowedOn[on] += 1;
    } else {
      expect(response.status).toBe(429);
      const retryAfter = Number(response.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      tally.refused += 1;
    }
  }
  return tally;
}

/** (a) Limits hold across the instances: they share one set of counters. */
export function throttlesHoldAcrossInstances(pair: ApiPair, store: ThrottleStoreKind) {
  it(`allows a user ${LIMITS.userPerHour} requests an hour across both instances`, async () => {
    const email = await newUser(pair, "throttled");
    const session = await logIn(pair.a.base, email);
    const tally = await alternate(pair, 20, (base) => me(base, session), 200);
    expect(tally).toEqual({ allowed: 5, refused: 15, allowedOn: { a: 3, b: 2 } });
  });

  it(`allows ${LIMITS.loginPerEmailPerHour} failed logins an hour for one email and network across both instances`, async () => {
    const email = await newUser(pair, "guessed");
    const tally = await alternate(pair, 12, (base) => login(base, email, "wrong password"), 401);
    expect(tally).toEqual({ allowed: 5, refused: 7, allowedOn: { a: 3, b: 2 } });
  });

  it(`keeps the counters in ${store === "redis" ? "Redis, not the database" : "the database"}`, async () => {
    const rows = await pair.db.select().from(throttleCounters).where(like(throttleCounters.key, "user:%"));
    if (store === "database") {
      expect(rows.length).toBeGreaterThan(0);
      return;
    }
    expect(rows).toEqual([]);
    const redis = createRedisClient(process.env.TEST_REDIS_URL as string);
    try {
      await connectRedis(redis, process.env.TEST_REDIS_URL as string, { info: () => {}, error: () => {} });
      const keys = await redis.keys(`${pair.redisPrefix}*`);
      expect(keys).toEqual(expect.arrayContaining([expect.stringMatching(/user:\d+\|3600\|\d+$/)]));
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });
}
