import { authRoutes } from "@allot/contract/auth/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { refreshTokens, sessions } from "@allot/db/schema/sessions";
import { users } from "@allot/db/schema/users";
import { testEngines } from "@allot/db/testing/test-databases";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import { sha256 } from "@allot/domain/auth/token-digest";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { createUser } from "@allot/domain/users/create-user";
import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { testConfig, useTestApp } from "../../../test/testing/test-app";

const PASSWORD = "correct horse battery staple";
let counter = 0;

/** The `refresh_token` Set-Cookie header of a response, if any. */
function refreshSetCookie(response: LightMyRequestResponse): string | undefined {
  const header = response.headers["set-cookie"];
  const all = Array.isArray(header) ? header : header ? [header] : [];
  return all.find((c) => c.startsWith("refresh_token="));
}

function refreshCookieValue(response: LightMyRequestResponse): string | undefined {
  return response.cookies.find((c) => c.name === "refresh_token")?.value;
}

/** The session id an access token is bound to (its `sid` claim). */
function sessionIdOf(access: string): string {
  const payload = JSON.parse(Buffer.from(access.split(".")[1] ?? "", "base64url").toString());
  return payload.sid;
}

/**
 * The cookie lives as long as its session: 14 days from the session's start, counted down to the
 * second when the cookie is written, which on a loaded machine can be a second or two later.
 */
function expectFourteenDays(setCookie: string) {
  const maxAge = Number(/; Max-Age=(\d+)(;|$)/.exec(setCookie)?.[1]);
  expect(maxAge).toBeLessThanOrEqual(14 * 86_400);
  expect(maxAge).toBeGreaterThan(14 * 86_400 - 10);
}

describe.each(testEngines())("authentication over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);

  async function newUser() {
    counter += 1;
    const email = `auth${counter}-${Date.now()}@example.com`;
    const row = await createUser(internalContext(t.db, "cli"), { email, password: PASSWORD });
    return { id: row.id, email };
  }

  async function login(email: string, password = PASSWORD) {
    const response = await t.anonymous.call(authRoutes.login, { email, password });
    expect(response.statusCode).toBe(200);
    return {
      access: response.json().access,
      cookie: refreshCookieValue(response) as string,
      response,
    };
  }

  const me = (access: string) => t.as(`Bearer ${access}`).call(userRoutes.getMe);
  const refresh = (cookie?: string, remoteAddress?: string) =>
    t.anonymous.call(
      authRoutes.refresh,
      {},
      { cookies: cookie === undefined ? undefined : { refresh_token: cookie }, remoteAddress },
    );
  const logout = (cookie?: string) =>
    t.anonymous.call(
      authRoutes.logout,
      {},
      { cookies: cookie === undefined ? undefined : { refresh_token: cookie } },
    );

  describe("login", () => {
    it("returns an access token in the body and the refresh token in a strict cookie", async () => {
      const user = await newUser();
      const { access, cookie, response } = await login(user.email);
      expect(Object.keys(response.json())).toEqual(["access"]);
      const setCookie = refreshSetCookie(response) as string;
      expect(setCookie).toMatch(/; HttpOnly/);
      expect(setCookie).toMatch(/; Secure/);
      expect(setCookie).toMatch(/; SameSite=Strict/);
      expectFourteenDays(setCookie);
      expect(setCookie).toMatch(/; Path=\/api\/token(;|$)/);
      expect(cookie).toMatch(/^[\w-]{43}$/);
      expect(response.body).not.toContain(cookie);

      const stored = await t.db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenDigest, sha256(cookie)));
      expect(stored).toHaveLength(1);

      const whoAmI = await me(access);
      expect(whoAmI.statusCode).toBe(200);
      expect(whoAmI.json().email).toBe(user.email);
    });

    it("accepts the email in any case and as a form body", async () => {
      const user = await newUser();
      const response = await t.inject({
        method: "POST",
        url: "/api/token/",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: `email=${encodeURIComponent(user.email.toUpperCase())}&password=${encodeURIComponent(PASSWORD)}`,
      });
      expect(response.statusCode).toBe(200);
      expect(typeof response.json().access).toBe("string");
    });

    it("refuses a wrong password, an unknown email and an inactive user alike with 401", async () => {
      const user = await newUser();
      const inactive = await newUser();
      await t.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));

      const attempts = [
        { email: user.email, password: "wrong password" },
        { email: `nobody-${Date.now()}@example.com`, password: PASSWORD },
        { email: inactive.email, password: PASSWORD },
      ];
      for (const payload of attempts) {
        const response = await t.anonymous.call(authRoutes.login, payload);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({
          detail: "No active account found with the given credentials.",
          code: "authentication_failed",
        });
        expect(refreshSetCookie(response)).toBeUndefined();
      }
    });

    it("refuses missing fields with 400", async () => {
      const response = await t.anonymous.callUnchecked(authRoutes.login, { email: "a@example.com" });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json())).toEqual(["password"]);
    });
  });

  describe("access tokens", () => {
    it("refuses an expired access token", async () => {
      const user = await newUser();
      const { access } = await login(user.email);
      const tokens = createAccessTokens(testConfig().jwtSecret);
      const past = new Date(Date.now() - 61 * 60_000);
      const expired = await tokens.sign({ userId: user.id, sessionId: sessionIdOf(access) }, past);
      const response = await me(expired);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: "Token has expired.", code: "token_not_valid" });
    });

    it("refuses garbage, a token signed with another secret and an unknown scheme", async () => {
      const user = await newUser();
      const { access } = await login(user.email);
      const forged = await createAccessTokens("another-secret-another-secret-another-secret").sign({
        userId: user.id,
        sessionId: sessionIdOf(access),
      });
      for (const authorization of ["Bearer not-a-jwt", `Bearer ${forged}`, `Token ${access}`, "Bearer"]) {
        // Raw: an unknown scheme and a bare "Bearer" are header values no caller of the client sends.
        const response = await t.inject({ url: "/api/v1/users/me/", headers: { authorization } });
        expect(response.statusCode).toBe(401);
        expect(response.json().code).toMatch(/^(token_not_valid|authentication_failed)$/);
      }
    });

    it("answers 401 without credentials", async () => {
      const response = await t.anonymous.call(userRoutes.getMe);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        detail: "Authentication credentials were not provided.",
        code: "not_authenticated",
      });
    });
  });

  describe("refresh", () => {
    it("issues a new access token and rotates the cookie, with a fresh 14-day window", async () => {
      const user = await newUser();
      const first = await login(user.email);
      const response = await refresh(first.cookie);
      expect(response.statusCode).toBe(200);
      const access = response.json().access;
      expect(sessionIdOf(access)).toBe(sessionIdOf(first.access));
      expect((await me(access)).statusCode).toBe(200);

      const setCookie = refreshSetCookie(response) as string;
      expect(setCookie).toMatch(/; HttpOnly/);
      expect(setCookie).toMatch(/; Secure/);
      expect(setCookie).toMatch(/; SameSite=Strict/);
      expectFourteenDays(setCookie);
      const rotated = refreshCookieValue(response) as string;
      expect(rotated).not.toBe(first.cookie);

      const [old] = await t.db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenDigest, sha256(first.cookie)));
      expect(old?.blacklistedAt).toBeInstanceOf(Date);

      // The rotated cookie works in turn.
      const again = await refresh(rotated);
      expect(again.statusCode).toBe(200);
    });

    it("treats reuse of a rotated token as theft: 401 and the whole session ends", async () => {
      const user = await newUser();
      const first = await login(user.email);
      const rotatedResponse = await refresh(first.cookie);
      const rotated = refreshCookieValue(rotatedResponse) as string;
      const rotatedAccess = rotatedResponse.json().access;

      const reuse = await refresh(first.cookie);
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json()).toEqual({ detail: "Token is blacklisted.", code: "token_not_valid" });

      expect((await refresh(rotated)).statusCode).toBe(401);
      expect((await me(rotatedAccess)).statusCode).toBe(401);
      expect((await me(first.access)).statusCode).toBe(401);

      // Other sessions of the same user are not touched.
      const other = await login(user.email);
      expect((await me(other.access)).statusCode).toBe(200);
      expect((await refresh(other.cookie)).statusCode).toBe(200);
    });

    it("lets only one of two concurrent refreshes with the same token succeed", async () => {
      const user = await newUser();
      const { cookie } = await login(user.email);
      const results = await Promise.all([refresh(cookie), refresh(cookie)]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
    });

    it("refuses a missing, unknown or expired cookie with 401 and drops it", async () => {
      const missing = await refresh();
      expect(missing.statusCode).toBe(401);
      expect(missing.json<{ code: string }>().code).toBe("not_authenticated");

      const unknown = await refresh("not-a-token-we-issued");
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toEqual({ detail: "Token is invalid.", code: "token_not_valid" });
      expect(refreshSetCookie(unknown)).toMatch(/^refresh_token=;/);

      const user = await newUser();
      const { cookie } = await login(user.email);
      await t.db
        .update(refreshTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(refreshTokens.tokenDigest, sha256(cookie)));
      const expired = await refresh(cookie);
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toEqual({ detail: "Token has expired.", code: "token_not_valid" });
    });

    it("refuses a token whose session has ended or whose user is inactive", async () => {
      const user = await newUser();
      const ended = await login(user.email);
      await t.db
        .update(sessions)
        .set({ endedAt: new Date() })
        .where(eq(sessions.id, sessionIdOf(ended.access)));
      expect((await refresh(ended.cookie)).statusCode).toBe(401);

      const live = await login(user.email);
      await t.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
      const inactive = await refresh(live.cookie);
      expect(inactive.statusCode).toBe(401);
      expect(inactive.json<{ detail: string }>().detail).toBe("User is inactive.");
      expect((await me(live.access)).statusCode).toBe(401);
    });
  });

  describe("logout", () => {
    it("answers 204 without a body, ends the session and clears the cookie", async () => {
      const user = await newUser();
      const { access, cookie } = await login(user.email);
      const response = await logout(cookie);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe("");
      const cleared = refreshSetCookie(response) as string;
      expect(cleared).toMatch(/^refresh_token=;/);
      expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);

      expect((await me(access)).statusCode).toBe(401);
      expect((await refresh(cookie)).statusCode).toBe(401);
      const [row] = await t.db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenDigest, sha256(cookie)));
      expect(row?.blacklistedAt).toBeInstanceOf(Date);
    });

    it("leaves the user's other sessions alone", async () => {
      const user = await newUser();
      const one = await login(user.email);
      const two = await login(user.email);
      expect((await logout(one.cookie)).statusCode).toBe(204);
      expect((await me(two.access)).statusCode).toBe(200);
      expect((await refresh(two.cookie)).statusCode).toBe(200);
    });

    it("answers 204 for a missing, unknown, expired or already blacklisted cookie", async () => {
      expect((await logout()).statusCode).toBe(204);
      expect((await logout("garbage")).statusCode).toBe(204);

      const user = await newUser();
      const first = await login(user.email);
      const rotated = refreshCookieValue(await refresh(first.cookie)) as string;
      expect((await logout(first.cookie)).statusCode).toBe(204);
      expect((await logout(first.cookie)).statusCode).toBe(204);
      expect((await logout(rotated)).statusCode).toBe(204);

      const other = await login(user.email);
      await t.db
        .update(refreshTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(refreshTokens.tokenDigest, sha256(other.cookie)));
      const expired = await logout(other.cookie);
      expect(expired.statusCode).toBe(204);
      expect(expired.body).toBe("");
      expect((await me(other.access)).statusCode).toBe(401);
    });

    it("works with an access token in the header too", async () => {
      const user = await newUser();
      const { access, cookie } = await login(user.email);
      // Raw: the path without its trailing slash is served too.
      const response = await t.inject({
        method: "POST",
        url: "/api/token/logout",
        headers: { authorization: `Bearer ${access}` },
        cookies: { refresh_token: cookie },
      });
      expect(response.statusCode).toBe(204);
      expect((await me(access)).statusCode).toBe(401);
    });
  });
});

describe.each(testEngines())("refresh without rotation (%s)", (engine) => {
  const t = useTestApp(engine, { refreshRotation: false });

  it("keeps the cookie: no new one is set and the same token keeps working", async () => {
    const email = `norotate-${Date.now()}@example.com`;
    await createUser(internalContext(t.db, "cli"), { email, password: PASSWORD });
    const loginResponse = await t.anonymous.call(authRoutes.login, { email, password: PASSWORD });
    const cookie = refreshCookieValue(loginResponse) as string;
    for (let i = 0; i < 2; i += 1) {
      const response = await t.anonymous.call(authRoutes.refresh, {}, { cookies: { refresh_token: cookie } });
      expect(response.statusCode).toBe(200);
      expect(refreshSetCookie(response)).toBeUndefined();
      const me = await t.as(`Bearer ${response.json().access}`).call(userRoutes.getMe);
      expect(me.statusCode).toBe(200);
    }
    const [row] = await t.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenDigest, sha256(cookie)));
    expect(row?.blacklistedAt).toBeNull();
  });
});
