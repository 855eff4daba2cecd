import { authRoutes } from "@allot/contract/auth/routes";
import { bankRoutes } from "@allot/contract/banks/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../test/testing/test-app";
import { testThrottleSetups } from "../../test/testing/test-throttle-stores";
import { expectThrottled } from "../../test/testing/throttle-test-kit";
import type { ApiConfig } from "../config";

const generous = parseThrottleRates("100000/minute");
const throttle: ApiConfig["throttle"] = {
  // Two windows for one caller: both are announced. Hourly, so no boundary falls mid-test but rarely.
  user: parseThrottleRates("4/hour,1000/day"),
  anon: parseThrottleRates("3/hour"),
  loginPerIp: generous,
  loginPerEmail: parseThrottleRates("5/hour"),
  refreshPerIp: generous,
};

let ips = 0;
const uniqueIp = () => {
  ips += 1;
  return `10.9.${ips >> 8}.${ips & 255}`;
};

/** A structured-field list of `"name";k=v;…` items, by name (parameters as numbers). */
function items(value: unknown): Record<string, Record<string, number>> {
  expect(typeof value).toBe("string");
  const parsed: Record<string, Record<string, number>> = {};
  for (const item of (value as string).split(/,\s*/)) {
    const [name, ...parameters] = item.split(";");
    expect(name).toMatch(/^"[a-z-]+"$/);
    parsed[(name as string).slice(1, -1)] = Object.fromEntries(
      parameters.map((parameter) => {
        const [key, number] = parameter.split("=");
        expect(number).toMatch(/^\d+$/);
        return [key, Number(number)];
      }),
    );
  }
  return parsed;
}

const limitsOf = (response: LightMyRequestResponse) => ({
  policy: items(response.headers["ratelimit-policy"]),
  state: items(response.headers.ratelimit),
});

describe.each(testThrottleSetups())("RateLimit headers over HTTP (%s, %s store)", (engine, store) => {
  const t = useTestApp(engine, { throttle }, { throttleStore: store });

  it("announces each of the user's quotas, counting down, and the 429 agrees with Retry-After", async () => {
    const user = await t.user();
    const remaining: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await t.as(user).call(userRoutes.getMe);
      expect(response.statusCode).toBe(200);
      const { policy, state } = limitsOf(response);
      expect(policy).toEqual({ "user-hour": { q: 4, w: 3600 }, "user-day": { q: 1000, w: 86_400 } });
      expect(state["user-day"]?.r).toBe(1000 - (i + 1));
      expect(state["user-hour"]?.t).toBeGreaterThan(0);
      expect(state["user-hour"]?.t).toBeLessThanOrEqual(3600);
      expect(state["user-day"]?.t).toBeLessThanOrEqual(86_400);
      remaining.push(state["user-hour"]?.r as number);
    }
    expect(remaining).toEqual([3, 2, 1, 0]);

    const refused = await t.as(user).call(userRoutes.getMe);
    expectThrottled(refused);
    const { policy, state } = limitsOf(refused);
    expect(policy["user-hour"]).toEqual({ q: 4, w: 3600 });
    expect(state["user-hour"]?.r).toBe(0);
    expect(state["user-day"]?.r).toBe(1000 - 5); // the refused request was counted too
    expect(Number(refused.headers["retry-after"])).toBe(state["user-hour"]?.t);
  });

  it("announces the anonymous quota of the caller's network, on 204s, 401s and 429s alike", async () => {
    const ip = uniqueIp();
    const logout = () => t.anonymous.call(authRoutes.logout, {}, { remoteAddress: ip });
    const first = await logout();
    expect(first.statusCode).toBe(204);
    expect(limitsOf(first)).toEqual({
      policy: { "anon-hour": { q: 3, w: 3600 } },
      state: { "anon-hour": { r: 2, t: expect.any(Number) } },
    });
    const unauthenticated = await t.anonymous.call(bankRoutes.list, {}, { remoteAddress: ip });
    expect(unauthenticated.statusCode).toBe(401);
    expect(limitsOf(unauthenticated).state["anon-hour"]?.r).toBe(1);
    // A refused credential counts against the network too, and says so.
    const badKey = await t.as("Api-Key not-a-real-key").call(userRoutes.getMe, {}, { remoteAddress: ip });
    expect(badKey.statusCode).toBe(401);
    expect(limitsOf(badKey).state["anon-hour"]?.r).toBe(0);
    const refused = await logout();
    expectThrottled(refused);
    const { state } = limitsOf(refused);
    expect(state["anon-hour"]?.r).toBe(0);
    expect(Number(refused.headers["retry-after"])).toBe(state["anon-hour"]?.t);
    // Once the bucket is used up, a credential from there is refused before any lookup (read only).
    const watched = await t.as("Api-Key another-key").call(userRoutes.getMe, {}, { remoteAddress: ip });
    expectThrottled(watched);
    const read = limitsOf(watched).state["anon-hour"];
    expect(read?.r).toBe(0);
    expect(Number(watched.headers["retry-after"])).toBe(read?.t);
    // No caller's address, id or email is named in the headers.
    expect(`${refused.headers["ratelimit-policy"]} ${refused.headers.ratelimit}`).not.toContain("10.9.");
  });

  it("announces every counter of a login: the network's, its logins', and its failures for the email", async () => {
    const ip = uniqueIp();
    const email = `nobody-${Date.now()}@example.com`;
    const failed = await t.anonymous.call(
      authRoutes.login,
      { email, password: "wrong" },
      { remoteAddress: ip },
    );
    expect(failed.statusCode).toBe(401);
    const { policy, state } = limitsOf(failed);
    expect(policy).toEqual({
      "anon-hour": { q: 3, w: 3600 },
      "login-ip-minute": { q: 100_000, w: 60 },
      "login-failed-hour": { q: 5, w: 3600 },
    });
    expect(state["login-failed-hour"]?.r).toBe(4); // the failure just recorded
    expect(state["anon-hour"]?.r).toBe(2);
    expect(`${failed.headers["ratelimit-policy"]} ${failed.headers.ratelimit}`).not.toContain("nobody");
  });

  it("sends no rate-limit headers outside the throttled API", async () => {
    const health = await t.inject({ url: "/healthz" });
    expect(health.statusCode).toBe(200);
    expect(health.headers["ratelimit-policy"]).toBeUndefined();
    expect(health.headers.ratelimit).toBeUndefined();
  });
});
