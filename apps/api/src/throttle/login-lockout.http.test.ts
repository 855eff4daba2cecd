import { authRoutes } from "@allot/contract/auth/routes";
import { bankRoutes } from "@allot/contract/banks/routes";
import { users } from "@allot/db/schema/users";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import { createUser } from "@allot/domain/users/create-user";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testConfig, useTestApp } from "../../test/testing/test-app";
import { testThrottleSetups } from "../../test/testing/test-throttle-stores";
import { expectThrottled } from "../../test/testing/throttle-test-kit";

const PASSWORD = "correct horse battery staple";
const base = testConfig().throttle;
// Hourly windows: a limit that a minute boundary falling mid-test cannot reset.
const tiny = parseThrottleRates("3/hour");

let emails = 0;
const uniqueEmail = (label: string) => `${label}${++emails}-${Date.now()}@example.com`;

describe.each(testThrottleSetups())("failed logins per email and network (%s, %s store)", (engine, store) => {
  describe("at the default 20 an hour", () => {
    const t = useTestApp(
      engine,
      { throttle: { ...base, loginPerEmail: parseThrottleRates("20/hour") } },
      { throttleStore: store },
    );
    const login = (email: string, password: string, remoteAddress: string) =>
      t.anonymous.call(authRoutes.login, { email, password }, { remoteAddress });

    it("locks the guessing network out of the account, not the owner elsewhere", async () => {
      const victim = uniqueEmail("victim");
      await createUser(internalContext(t.db, "cli"), { email: victim, password: PASSWORD });
      const statuses: number[] = [];
      for (let i = 0; i < 25; i += 1)
        statuses.push((await login(victim, `guess ${i}`, "203.0.113.7")).statusCode);
      expect(statuses).toEqual([...Array(20).fill(401), ...Array(5).fill(429)]);

      // Refused before the password is checked: the right one from that network is 429 too, also
      // when the same IPv4 client arrives as an IPv4-mapped IPv6 address.
      expectThrottled(await login(victim, PASSWORD, "203.0.113.7"));
      expectThrottled(await login(victim, PASSWORD, "::ffff:203.0.113.7"));
      expect((await login(victim, PASSWORD, "198.51.100.9")).statusCode).toBe(200);
    });
  });

  describe("at 3 an hour", () => {
    const t = useTestApp(engine, { throttle: { ...base, loginPerEmail: tiny } }, { throttleStore: store });
    const login = (email: string, password: string, remoteAddress: string) =>
      t.anonymous.call(authRoutes.login, { email, password }, { remoteAddress });

    it("counts IPv6 clients per /64", async () => {
      const email = uniqueEmail("six");
      await createUser(internalContext(t.db, "cli"), { email, password: PASSWORD });
      expect((await login(email, "wrong", "2001:db8:1:2::a")).statusCode).toBe(401);
      expect((await login(email, "wrong", "2001:db8:1:2::b")).statusCode).toBe(401);
      expect((await login(email, "wrong", "2001:db8:1:2:ffff:ffff:ffff:ffff")).statusCode).toBe(401);
      expectThrottled(await login(email, PASSWORD, "2001:db8:1:2::c"));
      // The next /64 is another network.
      expect((await login(email, "wrong", "2001:db8:1:3::a")).statusCode).toBe(401);
      expect((await login(email, PASSWORD, "2001:db8:1:3::a")).statusCode).toBe(200);
    });

    it("does not count successful logins", async () => {
      const email = uniqueEmail("owner");
      await createUser(internalContext(t.db, "cli"), { email, password: PASSWORD });
      for (let i = 0; i < 5; i += 1)
        expect((await login(email, PASSWORD, "192.0.2.10")).statusCode).toBe(200);
      expect((await login(email, "wrong", "192.0.2.10")).statusCode).toBe(401);
      expect((await login(email, PASSWORD, "192.0.2.10")).statusCode).toBe(200);
    });

    it("matches the address case-insensitively and ignores surrounding spaces", async () => {
      const email = uniqueEmail("Case");
      await createUser(internalContext(t.db, "cli"), { email, password: PASSWORD });
      expect((await login(email.toUpperCase(), "wrong", "192.0.2.20")).statusCode).toBe(401);
      expect((await login(` ${email} `, "wrong", "192.0.2.20")).statusCode).toBe(401);
      expect((await login(email.toLowerCase(), "wrong", "192.0.2.20")).statusCode).toBe(401);
      expectThrottled(await login(email, PASSWORD, "192.0.2.20"));
      // Another address from the same network is not locked.
      const other = uniqueEmail("other");
      await createUser(internalContext(t.db, "cli"), { email: other, password: PASSWORD });
      expect((await login(other, PASSWORD, "192.0.2.20")).statusCode).toBe(200);
    });

    // Decision 0025: every failed login counts, so the lock says no more than the 401 does.
    it("locks an unknown address and an inactive user exactly like an active one", async () => {
      const unknown = uniqueEmail("nobody");
      const inactive = uniqueEmail("inactive");
      const row = await createUser(internalContext(t.db, "cli"), { email: inactive, password: PASSWORD });
      await t.db.update(users).set({ isActive: false }).where(eq(users.id, row.id));
      for (const email of [unknown, inactive]) {
        for (let i = 0; i < 3; i += 1)
          expect((await login(email, PASSWORD, "192.0.2.30")).statusCode).toBe(401);
        expectThrottled(await login(email, PASSWORD, "192.0.2.30"));
      }
      // Neither touched anyone else's login from that network.
      const active = uniqueEmail("active");
      await createUser(internalContext(t.db, "cli"), { email: active, password: PASSWORD });
      expect((await login(active, PASSWORD, "192.0.2.30")).statusCode).toBe(200);
    });
  });
});

describe.each(testThrottleSetups())("per-network limits of IPv6 clients (%s, %s store)", (engine, store) => {
  const t = useTestApp(
    engine,
    { throttle: { ...base, anon: tiny, loginPerIp: tiny, refreshPerIp: tiny } },
    { throttleStore: store },
  );

  it("counts logins per /64", async () => {
    const login = (remoteAddress: string) =>
      t.anonymous.call(
        authRoutes.login,
        { email: uniqueEmail("nobody"), password: "wrong" },
        { remoteAddress },
      );
    for (const address of ["2001:db8:a:1::1", "2001:db8:a:1::2", "2001:db8:a:1:abcd::3"])
      expect((await login(address)).statusCode).toBe(401);
    expectThrottled(await login("2001:db8:a:1::4"));
    expect((await login("2001:db8:a:2::1")).statusCode).toBe(401);
  });

  it("counts anonymous requests and refreshes per /64", async () => {
    const refresh = (remoteAddress: string) => t.anonymous.call(authRoutes.refresh, {}, { remoteAddress });
    for (const address of ["2001:db8:b:1::1", "2001:db8:b:1::2", "2001:db8:b:1::3"])
      expect((await refresh(address)).statusCode).toBe(401);
    // Both the refresh bucket and the anonymous one of that /64 are used up.
    expectThrottled(await refresh("2001:db8:b:1::4"));
    expectThrottled(await t.anonymous.call(bankRoutes.list, {}, { remoteAddress: "2001:db8:b:1::5" }));
    expect((await refresh("2001:db8:b:2::1")).statusCode).toBe(401);
  });

  it("counts an IPv4-mapped IPv6 client as its IPv4 address", async () => {
    const banks = (remoteAddress: string) => t.anonymous.call(bankRoutes.list, {}, { remoteAddress });
    expect((await banks("198.51.100.20")).statusCode).toBe(401);
    expect((await banks("::ffff:198.51.100.20")).statusCode).toBe(401);
    expect((await banks("::ffff:c633:6414")).statusCode).toBe(401);
    expectThrottled(await banks("198.51.100.20"));
    expect((await banks("198.51.100.21")).statusCode).toBe(401);
  });
});
