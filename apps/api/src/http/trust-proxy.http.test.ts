import { authRoutes } from "@allot/contract/auth/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import { describe, expect, it } from "vitest";
import { type TestApp, testConfig, useTestApp } from "../../test/testing/test-app";

// Two anonymous requests an hour per client address: the third from one address is a 429.
const throttle = { ...testConfig().throttle, anon: parseThrottleRates("2/hour") };
const PROXY = "10.9.0.1";

/** An anonymous request (counted per client address) arriving from `peer`, maybe forwarded. */
const anonymous = (t: TestApp, peer: string, forwardedFor?: string) =>
  t.anonymous.call(
    authRoutes.logout,
    {},
    { remoteAddress: peer, headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} },
  );

describe.each(testEngines())("TRUST_PROXY (%s)", (engine) => {
  describe("set to the proxy's address", () => {
    const t = useTestApp(engine, { throttle, trustProxy: [PROXY, "10.8.0.0/16"] });

    it("believes X-Forwarded-For from the proxy: clients behind it are counted apart", async () => {
      for (let i = 0; i < 2; i++) expect((await anonymous(t, PROXY, "203.0.113.1")).statusCode).toBe(204);
      expect((await anonymous(t, PROXY, "203.0.113.1")).statusCode).toBe(429);
      // Another client behind the same proxy, and one behind a proxy of the trusted range.
      expect((await anonymous(t, PROXY, "203.0.113.2")).statusCode).toBe(204);
      expect((await anonymous(t, "10.8.3.4", "203.0.113.3")).statusCode).toBe(204);
      // A chain: the address the trusted proxy was given, not what the client claimed before it.
      for (let i = 0; i < 2; i++)
        expect((await anonymous(t, PROXY, `198.51.100.${i}, 203.0.113.4`)).statusCode).toBe(204);
      expect((await anonymous(t, PROXY, "198.51.100.9, 203.0.113.4")).statusCode).toBe(429);
    });

    it("ignores X-Forwarded-For from a peer it does not trust", async () => {
      const peer = "10.7.0.1";
      expect((await anonymous(t, peer, "203.0.113.10")).statusCode).toBe(204);
      expect((await anonymous(t, peer, "203.0.113.11")).statusCode).toBe(204);
      // Still the peer's own counter, whatever address it claims to forward.
      expect((await anonymous(t, peer, "203.0.113.12")).statusCode).toBe(429);
      expect((await anonymous(t, peer)).statusCode).toBe(429);
    });
  });

  describe("unset", () => {
    const t = useTestApp(engine, { throttle });

    it("counts a spoofed X-Forwarded-For against the peer's own address", async () => {
      expect((await anonymous(t, PROXY, "203.0.113.20")).statusCode).toBe(204);
      expect((await anonymous(t, PROXY, "203.0.113.21")).statusCode).toBe(204);
      expect((await anonymous(t, PROXY, "203.0.113.22")).statusCode).toBe(429);
    });
  });
});
