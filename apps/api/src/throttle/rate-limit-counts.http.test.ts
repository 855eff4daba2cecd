import { userRoutes } from "@allot/contract/users/routes";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../test/testing/test-app";
import { testThrottleSetups } from "../../test/testing/test-throttle-stores";
import { expectThrottled } from "../../test/testing/throttle-test-kit";
import type { ApiConfig } from "../config";
import type { ThrottleCounters } from "./throttle-store";

const generous = parseThrottleRates("100000/minute");
const base: Omit<ApiConfig["throttle"], "user"> = {
  anon: generous,
  loginPerIp: generous,
  loginPerEmail: generous,
  refreshPerIp: generous,
};

/** `r` of the `"user-day"` item of an answer's RateLimit field. */
const remaining = (response: LightMyRequestResponse) => {
  const item = /"user-day";r=(\d+);/.exec(String(response.headers.ratelimit));
  expect(item, String(response.headers.ratelimit)).not.toBeNull();
  return Number(item?.[1]);
};

/** The store's counters, whose writes can be held at the door and let through one by one. */
function heldCounters() {
  const held: (() => void)[] = [];
  let holding = false;
  const seenAs = (counters: ThrottleCounters): ThrottleCounters => ({
    add: async (increments, now) => {
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      return counters.add(increments, now);
    },
    read: (windows, now) => counters.read(windows, now),
  });
  return {
    seenAs,
    hold: () => {
      holding = true;
    },
    async held(count: number) {
      for (let waited = 0; held.length < count; waited += 5) {
        if (waited > 5_000) throw new Error(`${held.length} writes held, not ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    letOneThrough: () => held.shift()?.(),
    letAllThrough: () => {
      holding = false;
      for (const resolve of held.splice(0)) resolve();
    },
  };
}

describe.each(testThrottleSetups())(
  "RateLimit counts the request it answers (%s, %s store)",
  (engine, store) => {
    describe("one request after another", () => {
      // 40 a day (a day: no window boundary falls mid-test but at midnight): counted in memory up to 20, then in the store, exactly (decision 0044).
      const t = useTestApp(
        engine,
        { throttle: { ...base, user: parseThrottleRates("40/day") } },
        { throttleStore: store },
      );

      it("goes down by one per request, to r=0 on the refusal", async () => {
        const user = await t.user();
        const seen: number[] = [];
        for (let i = 0; i < 40; i += 1) {
          const response = await t.as(user).call(userRoutes.getMe);
          expect(response.statusCode).toBe(200);
          seen.push(remaining(response));
          // Now and then long enough for the hits waiting here to be written, or the count to go stale.
          if (i % 7 === 3) await new Promise((resolve) => setTimeout(resolve, 120 + i * 5));
        }
        expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => 39 - i));
        const refused = await t.as(user).call(userRoutes.getMe);
        expectThrottled(refused, 86_400);
        expect(remaining(refused)).toBe(0);
        expect(Number(refused.headers["retry-after"])).toBe(
          Number(/"user-day";r=0;t=(\d+)/.exec(String(refused.headers.ratelimit))?.[1]),
        );
      });
    });

    describe("while the instance's writes are still out", () => {
      const gate = heldCounters();
      const t = useTestApp(
        engine,
        { throttle: { ...base, user: parseThrottleRates("100000/day") } },
        { throttleStore: store, throttleCountersSeenAs: gate.seenAs },
      );

      it("announces each request its own count, and loses none", async () => {
        const user = await t.user();
        const counted: number[] = [];
        const call = async () => {
          const response = await t.as(user).call(userRoutes.getMe);
          expect(response.statusCode).toBe(200);
          counted.push(100_000 - remaining(response));
        };
        gate.hold();
        // Two first requests: no count is known here yet, both are written, and held.
        const first = call();
        await gate.held(1);
        const second = call();
        await gate.held(2);
        gate.letOneThrough();
        await first;
        // The first's count is known now: the third is admitted here, with the second still out.
        await call();
        gate.letOneThrough();
        await second;
        gate.letAllThrough();
        // Once the hits waiting here are written, the next request is the fourth.
        await new Promise((resolve) => setTimeout(resolve, 250));
        await call();
        expect(counted).toEqual([1, 3, 2, 4]);
      });
    });
  },
);
