import { credentialRoutes } from "@allot/contract/credentials/routes";
import { notifications } from "@allot/db/schema/notifications";
import { refreshTokens } from "@allot/db/schema/sessions";
import { testEngines } from "@allot/db/testing/test-databases";
import { sha256 } from "@allot/domain/auth/token-digest";
import { and, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import {
  credentialsKit,
  refreshCookieOf,
  strongPassword,
  tokenInLink,
} from "../../../test/testing/credentials-test-kit";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import type { CallInput } from "../../../test/testing/test-client";
import { useTestMailbox } from "../../../test/testing/test-mailbox";

describe.each(testEngines())("change-password over HTTP (%s)", (engine) => {
  // No throttle override: the default change-password limit (10/hour per user) is under test.
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  const kit = credentialsKit(t);

  const change = (authorization: string, input: CallInput<typeof credentialRoutes.changePassword>) =>
    t.as(authorization).call(credentialRoutes.changePassword, input);
  const changeTo = (authorization: string, user: TestUser, password: string) =>
    change(authorization, {
      current_password: user.password,
      new_password: password,
      confirm_password: password,
    });

  function expectNoCookie(response: LightMyRequestResponse) {
    expect(refreshCookieOf(response)).toBeUndefined();
  }

  it("changes the password, ends the other sessions and keeps the caller's with a new cookie", async () => {
    const user = await t.user();
    const caller = await kit.session(user.email, user.password);
    const other = await kit.session(user.email, user.password);
    const apiKey = await t.apiKey(user);

    const password = strongPassword();
    const response = await changeTo(caller.bearer, user, password);
    expect(response.statusCode, response.body).toBe(204);
    expect(response.body).toBe("");
    const setCookie = [response.headers["set-cookie"]].flat().find((c) => c?.startsWith("refresh_token="));
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; Secure/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Path=\/api\/token(;|$)/);
    const newCookie = refreshCookieOf(response) as string;
    expect(newCookie).not.toBe(caller.cookie);

    // The other session is over: its access token and its refresh token are refused.
    expect(await kit.sessionStatus(other)).toEqual([401, 401]);
    // The caller goes on: same access token, and the new cookie refreshes.
    expect((await kit.me(caller.bearer)).statusCode).toBe(200);
    const refreshed = await kit.refresh(newCookie);
    expect(refreshed.statusCode).toBe(200);
    expect((await kit.me(`Bearer ${refreshed.json().access}`)).statusCode).toBe(200);
    // The caller's old cookie was replaced: it is blacklisted.
    const [old] = await t.db
      .select({ blacklistedAt: refreshTokens.blacklistedAt })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenDigest, sha256(caller.cookie)));
    expect(old?.blacklistedAt).toBeInstanceOf(Date);

    expect((await kit.me(apiKey)).statusCode).toBe(200);
    expect((await kit.login(user.email, user.password)).statusCode).toBe(401);
    expect((await kit.login(user.email, password)).statusCode).toBe(200);

    const recorded = await t.db
      .select({ kind: notifications.kind })
      .from(notifications)
      .where(and(eq(notifications.userId, user.id), eq(notifications.kind, "password_changed")));
    expect(recorded).toHaveLength(1);
  });

  it("refuses a wrong current password on current_password", async () => {
    const user = await t.user();
    const password = strongPassword();
    const response = await change(user.bearer, {
      current_password: "not my password",
      new_password: password,
      confirm_password: password,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ current_password: ["Your current password was entered incorrectly."] });
    expectNoCookie(response);
    expect((await kit.login(user.email, user.password)).statusCode).toBe(200);
  });

  it("refuses a mismatch on confirm_password", async () => {
    const user = await t.user();
    const response = await change(user.bearer, {
      current_password: user.password,
      new_password: strongPassword(),
      confirm_password: strongPassword(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ confirm_password: ["The two password fields didn't match."] });
  });

  it("refuses a weak password on new_password, counting the user's email and name", async () => {
    const user = await t.user({ name: "Bartholomew Quince" });
    for (const weak of ["123456789", "password1", "bartholomewquince", user.email]) {
      const response = await changeTo(user.bearer, user, weak);
      expect(response.statusCode, weak).toBe(400);
      expect(Object.keys(response.json())).toEqual(["new_password"]);
      const [message] = response.json<{ new_password: string[] }>().new_password;
      expect(message).toMatch(/^This password is too easy to guess\. \S/);
    }
    expect((await kit.login(user.email, user.password)).statusCode).toBe(200);
  });

  it("reports every field at fault at once, and missing fields as required", async () => {
    const user = await t.user();
    const all = await change(user.bearer, {
      current_password: "wrong",
      new_password: "password",
      confirm_password: "passwort",
    });
    expect(all.statusCode).toBe(400);
    expect(Object.keys(all.json()).sort()).toEqual(["confirm_password", "current_password", "new_password"]);

    const missing = await t.as(user).callUnchecked(credentialRoutes.changePassword, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      current_password: ["This field is required."],
      new_password: ["This field is required."],
      confirm_password: ["This field is required."],
    });
    const wrongType = await t.as(user).callUnchecked(credentialRoutes.changePassword, {
      current_password: 5,
      new_password: [],
      confirm_password: null,
    });
    expect(wrongType.statusCode).toBe(400);
  });

  it("refuses API keys with 403 and leaves the password alone", async () => {
    const user = await t.user();
    const apiKey = await t.apiKey(user);
    const response = await changeTo(apiKey, user, strongPassword());
    expect(response.statusCode).toBe(403);
    expect(response.json<{ code: string }>().code).toBe("interactive_login_required");
    expect((await kit.login(user.email, user.password)).statusCode).toBe(200);
    expect((await t.anonymous.callUnchecked(credentialRoutes.changePassword, {})).statusCode).toBe(401);
  });

  it("refuses a session of a user without a usable password with 403", async () => {
    const user = await t.user();
    const session = await kit.session(user.email, user.password);
    await kit.dropPassword(user.id);
    const response = await changeTo(session.bearer, user, strongPassword());
    expect(response.statusCode).toBe(403);
    expect(response.json<{ code: string }>().code).toBe("no_usable_password");
    expect((await kit.me(session.bearer)).json().has_usable_password).toBe(false);
  });

  it("keeps API keys after a change and leaves an open email-change revocation link working", async () => {
    const user = await t.user();
    const apiKey = await t.apiKey(user);
    const newEmail = `moved-${Date.now()}@example.com`;
    const requested = await t.as(user).call(credentialRoutes.changeEmail, { new_email: newEmail });
    expect(requested.statusCode, requested.body).toBe(201);
    const confirmToken = tokenInLink(
      mailbox.linkIn(await mailbox.latestTo(newEmail), "/links/email-change/"),
      "/links/email-change/",
    );
    const revokeToken = tokenInLink(
      mailbox.linkIn(await mailbox.latestTo(user.email), "/links/email-change/"),
      "/links/email-change/",
    );
    const confirmed = await t.anonymous.call(credentialRoutes.confirmEmailChange, { token: confirmToken });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const password = strongPassword();
    expect((await changeTo(user.bearer, user, password)).statusCode).toBe(204);
    expect((await kit.me(apiKey)).statusCode).toBe(200);

    const revoked = await t.anonymous.call(credentialRoutes.revokeEmailChange, { token: revokeToken });
    expect(revoked.statusCode, revoked.body).toBe(200);
    // The revert undoes a possible takeover: a password set during the window no longer works
    // (decision 0024); the key made before the change request still does.
    expect((await kit.login(user.email, password)).statusCode).toBe(401);
    expect((await kit.me(apiKey)).statusCode).toBe(200);
  });

  it("allows 10 attempts an hour per user: the 11th is 429, whatever its outcome", async () => {
    const user = await t.user();
    const other = await t.user();
    for (let i = 0; i < 10; i += 1) {
      const response = await change(user.bearer, {
        current_password: "wrong",
        new_password: "x",
        confirm_password: "x",
      });
      expect(response.statusCode).toBe(400);
    }
    const throttled = await changeTo(user.bearer, user, strongPassword());
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(throttled.headers["retry-after"])).toBeLessThanOrEqual(3600);
    // Refused before running: the password is unchanged. Other endpoints and users are not held back.
    expect((await kit.login(user.email, user.password)).statusCode).toBe(200);
    expect((await kit.me(user.bearer)).statusCode).toBe(200);
    expect((await changeTo(other.bearer, other, strongPassword())).statusCode).toBe(204);
  });
});
