import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { bankRoutes } from "@allot/contract/banks/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { apiKeys } from "@allot/db/schema/api-keys";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testConfig, useTestApp } from "../../test/testing/test-app";
import { testThrottleSetups } from "../../test/testing/test-throttle-stores";
import { expectThrottled } from "../../test/testing/throttle-test-kit";

const base = testConfig().throttle;

describe.each(testThrottleSetups())("failed authentications (%s, %s store)", (engine, store) => {
  describe("with a small anonymous limit", () => {
    // Hourly: a minute boundary falling mid-test cannot reset it.
    const t = useTestApp(
      engine,
      { throttle: { ...base, anon: parseThrottleRates("4/hour") } },
      { throttleStore: store },
    );
    const me = (authorization: string, remoteAddress: string) =>
      t.as(authorization).call(userRoutes.getMe, {}, { remoteAddress });

    /** A new API key of the user: its `Authorization` value and id. */
    async function newKey(bearer: string, name: string) {
      const response = await t.as(bearer).call(apiKeyRoutes.create, { name });
      expect(response.statusCode, response.body).toBe(201);
      const { key, uuid } = response.json();
      return { authorization: `Api-Key ${key}`, uuid };
    }
    const lastUsedAt = async (uuid: string) =>
      (await t.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, uuid)))[0]?.at;

    it("counts bad, unknown, revoked and expired credentials against the network, then refuses", async () => {
      const user = await t.user();
      const revoked = await newKey(user.bearer, "revoked");
      await t.as(user).call(apiKeyRoutes.revoke, { uuid: revoked.uuid });
      const expired = await newKey(user.bearer, "expired");
      await t.db
        .update(apiKeys)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(apiKeys.id, expired.uuid));

      const attacker = "192.0.2.50";
      for (const credential of [
        "Api-Key allot_never-issued",
        revoked.authorization,
        expired.authorization,
        "Bearer not.a.jwt",
      ]) {
        expect((await me(credential, attacker)).statusCode).toBe(401);
      }
      expectThrottled(await me("Api-Key allot_never-issued-either", attacker));
      // The anonymous bucket it used up is that network's: anonymous requests are refused too.
      expectThrottled(await t.anonymous.call(bankRoutes.list, {}, { remoteAddress: attacker }));

      // Another network is unaffected, and so is a valid user elsewhere.
      expect((await me("Api-Key allot_never-issued", "192.0.2.51")).statusCode).toBe(401);
      expect((await me(user.bearer, "198.51.100.60")).statusCode).toBe(200);
    });

    it("refuses a credential from a used-up network before looking it up", async () => {
      const user = await t.user();
      const fresh = await newKey(user.bearer, "fresh");
      const attacker = "192.0.2.70";
      for (let i = 0; i < 4; i += 1)
        expect((await me(`Api-Key allot_guess-${i}`, attacker)).statusCode).toBe(401);

      // Even a valid key is refused there: it was never looked up (its use was never recorded).
      expectThrottled(await me(fresh.authorization, attacker));
      expect(await lastUsedAt(fresh.uuid)).toBeNull();
      expect((await me(fresh.authorization, "198.51.100.70")).statusCode).toBe(200);
      expect(await lastUsedAt(fresh.uuid)).not.toBeNull();
    });
  });

  describe("at the default anonymous rates", () => {
    const t = useTestApp(
      engine,
      { throttle: { ...base, anon: parseThrottleRates("100/minute,100/hour") } },
      { throttleStore: store },
    );

    it("answers 150 bogus API keys from one address with 100 × 401, then 429", async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 150; i += 1) {
        const response = await t
          .as(`Api-Key allot_bogus-${i}`)
          .call(bankRoutes.list, {}, { remoteAddress: "203.0.113.80" });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([...Array(100).fill(401), ...Array(50).fill(429)]);
    });
  });
});
