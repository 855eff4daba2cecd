import { authRoutes } from "@allot/contract/auth/routes";
import { bankRoutes } from "@allot/contract/banks/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import { createUser } from "@allot/domain/users/create-user";
import { describe, expect, it } from "vitest";
import { testConfig, useTestApp } from "../../test/testing/test-app";
import { routeCaller } from "../../test/testing/test-client";
import { expectThrottled } from "../../test/testing/throttle-test-kit";
import { buildApp } from "../app";
import type { ApiConfig } from "../config";

// Hourly windows: a tiny limit that a minute boundary falling mid-test cannot reset.
const tiny = parseThrottleRates("3/hour");
const generous = parseThrottleRates("100000/minute");
const all = {
  user: generous,
  anon: generous,
  loginPerIp: generous,
  loginPerEmail: generous,
  refreshPerIp: generous,
};
const PASSWORD = "correct horse battery staple";

let emails = 0;
const uniqueEmail = (label: string) => `${label}${++emails}-${Date.now()}@example.com`;
// Each test counts from addresses of its own (every describe block also has its own database).
let ips = 0;
const uniqueIp = () => {
  ips += 1;
  return `10.0.${ips >> 8}.${ips & 255}`;
};

describe.each(testEngines())("throttling over HTTP (%s)", (engine) => {
  describe("per user", () => {
    const throttle: ApiConfig["throttle"] = { ...all, user: tiny };
    const t = useTestApp(engine, { throttle });
    const me = (authorization: string) => t.as(authorization).call(userRoutes.getMe);

    it("counts every API key and session of one user together", async () => {
      const user = await t.user();
      const keyA = await t.apiKey(user, "a"); // 1
      const keyB = await t.apiKey(user, "b"); // 2
      expect((await me(keyA)).statusCode).toBe(200); // 3
      expectThrottled(await me(keyB));
      expectThrottled(await me(user.bearer));
      expectThrottled(await me(await t.login(user.email, user.password)));

      // Someone else is not slowed down.
      const other = await t.user();
      expect((await me(other.bearer)).statusCode).toBe(200);
    });

    it("shares the counter between two app instances on one database", async () => {
      const config = testConfig({ throttle });
      const second = await buildApp({
        db: t.db,
        tokens: createAccessTokens(config.jwtSecret),
        config,
        attachments: t.attachments.store,
      });
      try {
        const user = await t.user();
        expect((await me(user.bearer)).statusCode).toBe(200);
        const onSecond = () => routeCaller((options) => second.inject(options), user).call(userRoutes.getMe);
        expect((await onSecond()).statusCode).toBe(200);
        expect((await me(user.bearer)).statusCode).toBe(200);
        expectThrottled(await onSecond());
        expectThrottled(await me(user.bearer));
      } finally {
        await second.close();
      }
    });
  });

  describe("per anonymous IP", () => {
    const t = useTestApp(engine, { throttle: { ...all, anon: tiny } });

    it("counts anonymous requests per IP, whatever the endpoint", async () => {
      const ip = uniqueIp();
      const logout = (remoteAddress: string) => t.anonymous.call(authRoutes.logout, {}, { remoteAddress });
      expect((await logout(ip)).statusCode).toBe(204);
      expect((await t.anonymous.call(bankRoutes.list, {}, { remoteAddress: ip })).statusCode).toBe(401);
      expect((await logout(ip)).statusCode).toBe(204);
      expectThrottled(await logout(ip));
      expectThrottled(await t.anonymous.call(bankRoutes.list, {}, { remoteAddress: ip }));

      expect((await logout(uniqueIp())).statusCode).toBe(204);
      // An authenticated caller is counted as a user, not as the address: more requests than the
      // anonymous limit leave the address's bucket untouched. (Once that bucket is used up, a
      // credential from there is refused before it is checked: failed-authentications.http.test.ts.)
      const user = await t.user();
      const shared = uniqueIp();
      for (let i = 0; i < 5; i += 1) {
        const me = await t.as(user).call(userRoutes.getMe, {}, { remoteAddress: shared });
        expect(me.statusCode).toBe(200);
      }
      expect((await logout(shared)).statusCode).toBe(204);
    });
  });

  // Failed logins per email and network: login-lockout.http.test.ts.
  describe("login and refresh", () => {
    const t = useTestApp(engine, {
      throttle: { ...all, loginPerIp: tiny, refreshPerIp: tiny },
    });

    const login = (email: string, password: string, remoteAddress: string) =>
      t.anonymous.call(authRoutes.login, { email, password }, { remoteAddress });

    it("limits logins per IP, refusing before the password is checked", async () => {
      const email = uniqueEmail("ip");
      await createUser(internalContext(t.db, "cli"), { email, password: PASSWORD });
      const ip = uniqueIp();
      for (let i = 0; i < 3; i += 1) {
        expect((await login(uniqueEmail("nobody"), "wrong", ip)).statusCode).toBe(401);
      }
      expectThrottled(await login(email, PASSWORD, ip));
      expectThrottled(await login(uniqueEmail("nobody"), "wrong", ip));
      expect((await login(email, PASSWORD, uniqueIp())).statusCode).toBe(200);
    });

    it("limits refreshes per IP", async () => {
      const email = uniqueEmail("refresh");
      await createUser(internalContext(t.db, "cli"), { email, password: PASSWORD });
      const logged = await login(email, PASSWORD, uniqueIp());
      const cookie = logged.cookies.find((c) => c.name === "refresh_token")?.value as string;
      const refresh = (remoteAddress: string) =>
        t.anonymous.call(authRoutes.refresh, {}, { cookies: { refresh_token: cookie }, remoteAddress });

      const ip = uniqueIp();
      for (let i = 0; i < 3; i += 1) {
        const noCookie = await t.anonymous.call(authRoutes.refresh, {}, { remoteAddress: ip });
        expect(noCookie.statusCode).toBe(401);
      }
      expectThrottled(await refresh(ip));
      // Refused before running: the token was not used up, so it still works from elsewhere.
      expect((await refresh(uniqueIp())).statusCode).toBe(200);
    });
  });
});
