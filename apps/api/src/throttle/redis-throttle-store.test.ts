import { randomBytes } from "node:crypto";
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import { authRoutes } from "@allot/contract/auth/routes";
import { userRoutes } from "@allot/contract/users/routes";
import type { DatabaseHandle } from "@allot/db/create-database";
import { openTestDatabase } from "@allot/db/testing/test-databases";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import { Throttled } from "@allot/domain/shared/errors";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import type { ThrottleCheck } from "@allot/domain/throttle/throttle-windows";
import { createUser } from "@allot/domain/users/create-user";
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../test/testing/test-app";
import { temporaryAttachmentStore } from "../../test/testing/test-attachments";
import { type Caller, routeCaller } from "../../test/testing/test-client";
import { describeOnRedis } from "../../test/testing/test-throttle-stores";
import { buildApp } from "../app";
import { connectRedis, createRedisClient } from "./redis-connection";
import { redisThrottleCounters, redisThrottleStore } from "./redis-throttle-store";
import type { ThrottleCounters } from "./throttle-store";
import { ThrottleStoreUnavailable } from "./throttle-store";

// The Redis tests run when TEST_REDIS_URL names a server (CI: redis://127.0.0.1:6379); the tests of an
// unreachable Redis need none and always run.
const quietLog = { info: () => {}, error: () => {} };
const PASSWORD = "correct horse battery staple";

/** A prefix of the test's own, so parallel tests (and runs) never share a counter. */
const testPrefix = () => `allot-test:${randomBytes(6).toString("hex")}:`;

const rates = (text: string) => parseThrottleRates(text);

/** A port nothing listens on (taken from the OS, then released). */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const address = server.address();
  await new Promise((r) => server.close(r));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** The app over a scratch embedded database with the given store; the caller closes both. */
async function appWith(
  counters: ThrottleCounters,
  throttle: Partial<ReturnType<typeof testConfig>["throttle"]>,
) {
  const database = await openTestDatabase("pglite");
  const base = testConfig();
  const config = testConfig({ throttle: { ...base.throttle, ...throttle } });
  const attachments = temporaryAttachmentStore();
  const app = await buildApp(
    { db: database.db, tokens: createAccessTokens(config.jwtSecret), config, attachments: attachments.store },
    { throttleCounters: counters },
  );
  return { app, database, config, attachments };
}

/** Calls contract routes on one of this file's apps (they are built here, not by `useTestApp`). */
const on = (app: FastifyInstance, caller: Caller = null) =>
  routeCaller((options) => app.inject(options), caller);

const login = (app: FastifyInstance, email: string, password = PASSWORD) =>
  on(app).call(authRoutes.login, { email, password });

describe("the Redis throttle store, Redis unreachable", () => {
  const clients: Redis[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });

  it("stops the server from starting when Redis cannot be reached", async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const redis = createRedisClient(url);
    clients.push(redis);
    await expect(connectRedis(redis, url, quietLog)).rejects.toThrow(/unreachable/);
  });

  it("refuses requests with 503 and Retry-After, never serves them uncounted", async () => {
    const redis = createRedisClient(`redis://127.0.0.1:${await closedPort()}`);
    clients.push(redis);
    const store = redisThrottleStore(redis, testPrefix());
    await expect(store.consume([{ key: "user:1", rates: rates("5/minute") }])).rejects.toBeInstanceOf(
      ThrottleStoreUnavailable,
    );

    const { app, database } = await appWith(store.counters, {});
    try {
      const response = await login(app, "nobody@example.com");
      expect(response.statusCode).toBe(503);
      expect(response.headers["retry-after"]).toBe("5");
      expect(response.json()).toEqual({
        detail: "The service is unavailable; try again shortly.",
        code: "service_unavailable",
      });
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describeOnRedis("the Redis throttle store", (url) => {
  const clients: Redis[] = [];
  const prefixes: string[] = [];
  const client = async () => {
    const redis = createRedisClient(url);
    clients.push(redis);
    await connectRedis(redis, url, quietLog);
    return redis;
  };
  const storeOn = (redis: Redis) => {
    const prefix = testPrefix();
    prefixes.push(prefix);
    return { store: redisThrottleStore(redis, prefix), prefix };
  };
  afterAll(async () => {
    const [redis] = clients;
    for (const prefix of prefixes) {
      const keys = await redis?.keys(`${prefix}*`);
      if (redis && keys?.length) await redis.del(...keys);
    }
    for (const redis of clients) redis.disconnect();
  });

  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      () => "allowed",
      (error: unknown) => {
        if (error instanceof Throttled) return "throttled";
        throw error;
      },
    );

  it("counts fixed windows: the limit passes, the next is refused until the window ends", async () => {
    const redis = await client();
    const { store, prefix } = storeOn(redis);
    const now = new Date("2031-03-04T05:06:30.250Z");
    const checks: ThrottleCheck[] = [{ key: "user:7", rates: rates("3/minute") }];
    for (let i = 0; i < 3; i++) await store.consume(checks, now);
    const refused = await store.consume(checks, now).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Throttled);
    expect((refused as Throttled).retryAfterSeconds).toBe(30); // 05:06:30.25 → 05:07:00
    // Someone else is counted apart.
    await store.consume([{ key: "user:8", rates: rates("3/minute") }], now);
    // The next window starts from zero.
    await store.consume(checks, new Date("2031-03-04T05:07:00.000Z"));

    // One key per caller, window length and window start, expiring when its window closes.
    const key = `${prefix}user:7|60|${Date.parse("2031-03-04T05:06:00Z") / 1000}`;
    expect(await redis.get(key)).toBe("4");
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(29_750 + 5_000);
  });

  it("refuses on the strictest of several checks and rates, and counts every one of them", async () => {
    const { store } = storeOn(await client());
    const checks: ThrottleCheck[] = [
      { key: "anon:10.0.0.1", rates: rates("100/minute,2/hour") },
      { key: "login-email:a@example.com", rates: rates("5/hour") },
    ];
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await outcome(store.consume(checks)));
    expect(results).toEqual(["allowed", "allowed", "throttled", "throttled"]);
    // The email's counter went up by 4 as well: a fifth login for it from elsewhere is its last.
    const email: ThrottleCheck[] = [{ key: "login-email:a@example.com", rates: rates("5/hour") }];
    expect(await outcome(store.consume(email))).toBe("allowed");
    expect(await outcome(store.consume(email))).toBe("throttled");
  });

  it("records without refusing, and refuses a used-up check without counting it", async () => {
    const redis = await client();
    const { store, prefix } = storeOn(redis);
    const now = new Date("2031-03-04T05:06:30.000Z");
    const checks: ThrottleCheck[] = [{ key: "login-failed:10.0.0.1|a@example.com", rates: rates("2/hour") }];
    await store.refuseIfExhausted(checks, now);
    for (let i = 0; i < 3; i++) await store.record(checks, now); // past the limit: never refused
    const refused = await store.refuseIfExhausted(checks, now).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Throttled);
    expect((refused as Throttled).retryAfterSeconds).toBe(3210); // 05:06:30 → 06:00:00
    const key = `${prefix}login-failed:10.0.0.1|a@example.com|3600|${Date.parse("2031-03-04T05:00:00Z") / 1000}`;
    expect(await redis.get(key)).toBe("3");
    // The next window starts from zero.
    await store.refuseIfExhausted(checks, new Date("2031-03-04T06:00:00.000Z"));
  });

  it("is atomic across clients: 40 requests at once on two connections, limit 10, 10 allowed", async () => {
    const prefix = testPrefix();
    prefixes.push(prefix);
    const stores = [redisThrottleStore(await client(), prefix), redisThrottleStore(await client(), prefix)];
    const checks: ThrottleCheck[] = [{ key: "user:1", rates: rates("10/hour") }];
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        outcome((stores[i % 2] as (typeof stores)[number]).consume(checks)),
      ),
    );
    expect(results.filter((r) => r === "allowed")).toHaveLength(10);
    expect(results.filter((r) => r === "throttled")).toHaveLength(30);
  });

  it("answers 503 while Redis is lost and counts again once it is back", async () => {
    const proxy = await redisProxy(url);
    try {
      const redis = createRedisClient(proxy.url);
      clients.push(redis);
      const errors: string[] = [];
      await connectRedis(redis, proxy.url, { info: () => {}, error: (message) => errors.push(message) });
      const { store } = storeOn(redis);
      const checks: ThrottleCheck[] = [{ key: "user:1", rates: rates("100/hour") }];
      await store.consume(checks);

      await proxy.stop();
      const lostBy = Date.now() + 5_000;
      while (redis.status === "ready" && Date.now() < lostBy) await new Promise((r) => setTimeout(r, 20));
      await expect(store.consume(checks)).rejects.toBeInstanceOf(ThrottleStoreUnavailable);
      expect(errors).toEqual([expect.stringMatching(/lost .*503/)]);

      await proxy.start();
      // The client reconnects in the background (at most 2 s apart).
      const deadline = Date.now() + 15_000;
      while (redis.status !== "ready" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      await store.consume(checks);
    } finally {
      await proxy.stop();
    }
  });

  describe("over HTTP, two app instances on one Redis", () => {
    let first: Awaited<ReturnType<typeof appWith>>;
    let second: FastifyInstance;
    let database: DatabaseHandle;
    beforeAll(async () => {
      const prefix = testPrefix();
      prefixes.push(prefix);
      const throttle = { user: rates("3/hour") };
      first = await appWith(redisThrottleCounters(await client(), prefix), throttle);
      database = first.database;
      second = await buildApp(
        {
          db: database.db,
          tokens: createAccessTokens(first.config.jwtSecret),
          config: first.config,
          attachments: first.attachments.store,
        },
        { throttleCounters: redisThrottleCounters(await client(), prefix) },
      );
    });
    afterAll(async () => {
      await second?.close();
      await first?.app.close();
      await database?.close();
    });

    it("shares a user's counter: 3 allowed across both, then 429 with Retry-After on either", async () => {
      const email = `redis-${Date.now()}@example.com`;
      await createUser(internalContext(database.db, "cli"), { email, password: PASSWORD });
      const authorization = `Bearer ${(await login(first.app, email)).json().access}`;
      const me = (app: FastifyInstance) => on(app, authorization).call(userRoutes.getMe);
      const statuses = [];
      for (const app of [first.app, second, first.app, second, first.app])
        statuses.push((await me(app)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const refused = await me(second);
      expect(refused.json()).toEqual({ detail: expect.stringMatching(/throttled/i), code: "throttled" });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(3600);
    });
  });
});

/** A TCP relay in front of Redis that can be cut (every connection dropped) and restored. */
async function redisProxy(redisUrl: string) {
  const target = new URL(redisUrl);
  const port = await closedPort();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const start = async () => {
    server = createServer((client) => {
      const upstream = tcpConnect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
        socket.on("error", () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    const listening = server;
    await new Promise<void>((resolve) => listening.listen(port, "127.0.0.1", resolve));
  };
  const stop = async () => {
    const closing = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise((r) => closing.close(r));
  };
  await start();
  const auth = target.username || target.password ? `${target.username}:${target.password}@` : "";
  return { url: `redis://${auth}127.0.0.1:${port}${target.pathname}`, start, stop };
}
