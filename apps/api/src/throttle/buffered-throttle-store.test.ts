import { setTimeout as sleep } from "node:timers/promises";
import type { DatabaseHandle } from "@allot/db/create-database";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import type { ThrottleCheck, ThrottleWindow } from "@allot/domain/throttle/throttle-windows";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type BufferedThrottleStore, bufferedThrottleStore, SYNC_MS } from "./buffered-throttle-store";
import { databaseThrottleCounters } from "./database-throttle-store";
import { CountersThrottled, type ThrottleCounters, ThrottleStoreUnavailable } from "./throttle-store";

const check = (rate: string, key = "user:1"): ThrottleCheck[] => [{ key, rates: parseThrottleRates(rate) }];

/** Counters in memory that count their round trips and can be made unreachable. */
function memoryCounters() {
  const hits = new Map<string, number>();
  const id = (window: ThrottleWindow) => `${window.key}|${window.windowStart}`;
  const counters = {
    roundTrips: 0,
    down: false,
    hitsOf: (key: string) =>
      [...hits].filter(([id]) => id.startsWith(`${key}|`)).reduce((n, [, h]) => n + h, 0),
    async add(increments, now) {
      counters.roundTrips += 1;
      if (counters.down) throw new ThrottleStoreUnavailable("memory", new Error("down"));
      return {
        counters: increments.map(({ window, hits: added }) => {
          const total = (hits.get(id(window)) ?? 0) + added;
          hits.set(id(window), total);
          return { window, hits: total };
        }),
        at: now,
      };
    },
    async read(windows, now) {
      counters.roundTrips += 1;
      if (counters.down) throw new ThrottleStoreUnavailable("memory", new Error("down"));
      return { counters: windows.map((window) => ({ window, hits: hits.get(id(window)) ?? 0 })), at: now };
    },
  } satisfies ThrottleCounters & Record<string, unknown>;
  return counters;
}

const outcome = (attempt: Promise<unknown>) =>
  attempt.then(
    () => "allowed" as const,
    (error: unknown) => {
      if (error instanceof ThrottleStoreUnavailable) return "unavailable" as const;
      if (error instanceof CountersThrottled) return "throttled" as const;
      throw error;
    },
  );

describe("the buffered throttle store", () => {
  const stores: { close(): Promise<void> }[] = [];
  const buffered = (counters: ThrottleCounters) => {
    const store = bufferedThrottleStore(counters);
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });

  it("counts a caller far from its limit in memory, and writes the hits within the sync interval", async () => {
    // Given a limit of 1,600 a minute and a first request, counted in the store
    const counters = memoryCounters();
    const store = buffered(counters);
    await store.consume(check("1600/minute"));
    expect(counters.roundTrips).toBe(1);

    // When 50 more come at once
    const usages = await Promise.all(Array.from({ length: 50 }, () => store.consume(check("1600/minute"))));

    // Then none waits for the store, each is told its count, and the store has them all soon after
    expect(counters.roundTrips).toBe(1);
    expect(usages.map((usage) => usage.counters[0]?.hits).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 2),
    );
    await sleep(SYNC_MS * 3);
    expect(counters.hitsOf("user:1")).toBe(51);
  });

  it("keeps a steady caller off the store between syncs, even when a sync's write is slower than the last", async () => {
    // On a clock the test moves, so a busy machine cannot delay a sync into a gap of its own; ten
    // seconds into a minute, so the second it runs never crosses into a new minute's window
    vi.useFakeTimers({ now: new Date("2026-06-01T12:00:10.000Z") });
    try {
      // Given a store whose writes take 45 ms and 5 ms in turn, as a busy database's do
      const counters = memoryCounters();
      let slow = false;
      const add = counters.add;
      counters.add = async (increments, now) => {
        slow = !slow;
        await new Promise((resolve) => setTimeout(resolve, slow ? 45 : 5));
        return add(increments, now);
      };
      const store = buffered(counters);
      const first = store.consume(check("100000/minute"));
      await vi.advanceTimersByTimeAsync(45);
      await first;

      // When a caller far from its limit sends a request every millisecond for a second, not waiting for answers
      const inFlight: Promise<unknown>[] = [];
      for (let ms = 0; ms < 1_000; ms++) {
        inFlight.push(store.consume(check("100000/minute")));
        await vi.advanceTimersByTimeAsync(1);
      }
      await vi.advanceTimersByTimeAsync(50);
      await Promise.all(inFlight);

      // Then the store saw the first request and the syncs' writes, and no request's own
      expect(counters.roundTrips).toBe(1 + 1_000 / SYNC_MS);
    } finally {
      vi.useRealTimers();
    }
  });

  it("counts every request of a small limit in the store: exact, as without the buffer", async () => {
    // Given a limit of 10 an hour (smaller than 16: no share to hold locally)
    const counters = memoryCounters();
    const store = buffered(counters);

    // When 40 requests come at once
    const results = await Promise.all(
      Array.from({ length: 40 }, () => outcome(store.consume(check("10/hour")))),
    );

    // Then each was a round trip, and exactly 10 were allowed
    expect(counters.roundTrips).toBe(40);
    expect(results.filter((r) => r === "allowed")).toHaveLength(10);
  });

  it("counts in the store once past half the limit, so one instance never admits beyond it", async () => {
    // Given a limit of 64 a minute (4 may wait locally)
    const counters = memoryCounters();
    const store = buffered(counters);

    // When 100 requests come one after the other
    const results: string[] = [];
    for (let i = 0; i < 100; i++) results.push(await outcome(store.consume(check("64/minute"))));

    // Then exactly 64 are allowed, and the store saw every request of the second half
    expect(results.filter((r) => r === "allowed")).toHaveLength(64);
    expect(counters.hitsOf("user:1")).toBe(100);
  });

  it("keeps admitting its share while the store is down, then refuses with 503; the hits wait", async () => {
    // Given a counter read from the store, which then becomes unreachable
    const counters = memoryCounters();
    const store = buffered(counters);
    await store.consume(check("1600/minute"));
    counters.down = true;

    // When more requests come than may wait locally (1,600 / 16 = 100)
    const results: string[] = [];
    for (let i = 0; i < 120; i++) results.push(await outcome(store.consume(check("1600/minute"))));

    // Then the first 100 are admitted and the rest refused as unavailable, never served uncounted
    expect(results.slice(0, 100).every((r) => r === "allowed")).toBe(true);
    expect(results.slice(100).every((r) => r === "unavailable")).toBe(true);

    // And once the store is back the waiting hits are written
    counters.down = false;
    await sleep(SYNC_MS * 3);
    expect(counters.hitsOf("user:1")).toBe(101);
  });

  it("reads waiting hits too when asked whether a counter is used up", async () => {
    // Given 3 requests on a limit of 48 a minute: the first counted in the store, 2 waiting here
    const counters = memoryCounters();
    const store = buffered(counters);
    for (let i = 0; i < 3; i++) await store.consume(check("48/minute", "anon:net"));

    // When it is asked whether one more is allowed
    const usage = await store.refuseIfExhausted(check("48/minute", "anon:net"));

    // Then the count includes every hit, written ones and waiting ones
    expect(usage.counters[0]?.hits).toBe(3);
    expect(counters.hitsOf("anon:net")).toBe(3);
  });

  it("writes its waiting hits when closed", async () => {
    const counters = memoryCounters();
    const store = bufferedThrottleStore(counters);
    for (let i = 0; i < 10; i++) await store.consume(check("1600/minute"));
    expect(counters.hitsOf("user:1")).toBeLessThan(10);

    await store.close();

    expect(counters.hitsOf("user:1")).toBe(10);
  });
});

describe.each(testEngines())("two buffered instances over one database (%s)", (engine) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("hold a limit across instances to within each other instance's local share", async () => {
    // Given two instances counting in one database, and a limit of 320 an hour (20 may wait locally)
    const instances: BufferedThrottleStore[] = [
      bufferedThrottleStore(databaseThrottleCounters(database.db)),
      bufferedThrottleStore(databaseThrottleCounters(database.db)),
    ];
    const checks = check("320/hour", "user:2");
    try {
      // When 800 requests come, 8 at a time, alternating between the instances
      const results: string[] = [];
      for (let i = 0; i < 100; i++) {
        results.push(
          ...(await Promise.all(
            Array.from({ length: 8 }, (_, j) =>
              outcome((instances[j % 2] as BufferedThrottleStore).consume(checks)),
            ),
          )),
        );
      }

      // Then at least the limit and at most one other instance's share more were allowed
      const allowed = results.filter((r) => r === "allowed").length;
      expect(allowed).toBeGreaterThanOrEqual(320);
      expect(allowed).toBeLessThanOrEqual(320 + 20);
    } finally {
      for (const instance of instances) await instance.close();
    }
    // And the database holds every request once both have written theirs
    const usage = await databaseThrottleCounters(database.db).read(
      [
        {
          key: "user:2|3600",
          windowStart: Math.floor(Date.now() / 3_600_000) * 3600,
          windowSeconds: 3600,
          limit: 320,
        },
      ],
      new Date(),
    );
    expect(usage.counters[0]?.hits).toBe(800);
  });
});
