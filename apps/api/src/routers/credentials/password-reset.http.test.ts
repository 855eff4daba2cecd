import { credentialRoutes } from "@allot/contract/credentials/routes";
import { passwordResetTokens } from "@allot/db/schema/credential-tokens";
import { notifications } from "@allot/db/schema/notifications";
import { users } from "@allot/db/schema/users";
import { testEngines } from "@allot/db/testing/test-databases";
import { sha256 } from "@allot/domain/auth/token-digest";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { credentialsKit, strongPassword, tokenInLink } from "../../../test/testing/credentials-test-kit";
import { useTestApp } from "../../../test/testing/test-app";
import { useTestMailbox } from "../../../test/testing/test-mailbox";

const RESET_LINK = "/links/password-reset/";

describe.each(testEngines())("password reset over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  const kit = credentialsKit(t);

  const request = (email: string) => t.anonymous.call(credentialRoutes.requestPasswordReset, { email });
  const confirm = (token: string, passwords: { new_password: string; confirm_password: string }) =>
    t.anonymous.call(credentialRoutes.confirmPasswordReset, { token, ...passwords });
  const setPassword = (token: string, password: string) =>
    confirm(token, { new_password: password, confirm_password: password });

  /** Asks for a reset for the address and returns the token from the email it received. */
  async function resetTokenFor(email: string) {
    const before = (await mailbox.messagesTo(email)).length;
    const response = await request(email);
    expect(response.statusCode, response.body).toBe(204);
    const messages = await mailbox.messagesTo(email);
    expect(messages).toHaveLength(before + 1);
    const message = messages[messages.length - 1];
    if (!message) throw new Error("no reset email");
    expect(message.subject).toBe("Reset your Allot password");
    return tokenInLink(mailbox.linkIn(message, RESET_LINK), RESET_LINK);
  }

  it("emails a link; confirming it sets the password and ends every session, API keys kept", async () => {
    const user = await t.user();
    const first = await kit.session(user.email, user.password);
    const second = await kit.session(user.email, user.password);
    const apiKey = await t.apiKey(user);

    const message = await (async () => {
      expect((await request(user.email.toUpperCase())).statusCode).toBe(204);
      return mailbox.latestTo(user.email);
    })();
    const link = mailbox.linkIn(message, RESET_LINK);
    expect(link).toMatch(/^http:\/\/allot\.test\/links\/password-reset\/[\w-]{43}$/);
    expect(message.html).toContain(link);

    const password = strongPassword();
    const response = await setPassword(tokenInLink(link, RESET_LINK), password);
    expect(response.statusCode, response.body).toBe(204);
    expect(response.body).toBe("");

    expect(await kit.sessionStatus(first)).toEqual([401, 401]);
    expect(await kit.sessionStatus(second)).toEqual([401, 401]);
    expect((await kit.login(user.email, user.password)).statusCode).toBe(401);
    const fresh = await kit.session(user.email, password);
    expect(await kit.sessionStatus(fresh)).toEqual([200, 200]);
    expect((await kit.me(apiKey)).statusCode).toBe(200);

    const recorded = await t.db
      .select({ kind: notifications.kind })
      .from(notifications)
      .where(and(eq(notifications.userId, user.id), eq(notifications.kind, "password_changed")));
    expect(recorded).toHaveLength(1);
  });

  it("answers 204 for an unknown address and sends nothing", async () => {
    const nobody = `nobody-${Date.now()}@example.com`;
    expect((await request(nobody)).statusCode).toBe(204);
    expect(await mailbox.messagesTo(nobody)).toEqual([]);
  });

  it("sends nothing to a deactivated user with a password", async () => {
    const user = await t.user();
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    expect((await request(user.email)).statusCode).toBe(204);
    expect(await mailbox.messagesTo(user.email)).toEqual([]);
  });

  it("refuses a missing or blank email with 400", async () => {
    const missing = await t.anonymous.callUnchecked(credentialRoutes.requestPasswordReset, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ email: ["This field is required."] });
    expect((await request("   ")).statusCode).toBe(400);
  });

  it("activates a placeholder and gives it a usable password", async () => {
    const email = `Placeholder-${Date.now()}@example.com`;
    const placeholder = await kit.placeholder(email);
    const token = await resetTokenFor(email);
    const password = strongPassword();
    expect((await setPassword(token, password)).statusCode).toBe(204);

    const [row] = await t.db.select().from(users).where(eq(users.id, placeholder.id));
    expect(row?.isActive).toBe(true);
    const session = await kit.session(email.toLowerCase(), password);
    const me = await kit.me(session.bearer);
    expect(me.json()).toMatchObject({ email, username: email.toLowerCase(), has_usable_password: true });
  });

  it("works once: a used link is 400, and so are the user's older links", async () => {
    const user = await t.user();
    const older = await resetTokenFor(user.email);
    const token = await resetTokenFor(user.email);
    expect((await setPassword(token, strongPassword())).statusCode).toBe(204);

    for (const used of [token, older]) {
      const again = await setPassword(used, strongPassword());
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ non_field_errors: ["This password-reset link has already been used."] });
    }
  });

  it("lets only one of two concurrent confirmations with one link succeed", async () => {
    const user = await t.user();
    const token = await resetTokenFor(user.email);
    const results = await Promise.all([
      setPassword(token, strongPassword()),
      setPassword(token, strongPassword()),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([204, 400]);
  });

  it("refuses an expired link with 400 and an unknown one with 404", async () => {
    const user = await t.user();
    const token = await resetTokenFor(user.email);
    await t.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.tokenDigest, sha256(token)));
    const expired = await setPassword(token, strongPassword());
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ non_field_errors: ["This password-reset link has expired."] });
    expect((await kit.login(user.email, user.password)).statusCode).toBe(200);

    const unknown = await setPassword("no-such-token", strongPassword());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: "This password-reset link is not valid.", code: "not_found" });
    expect((await setPassword("x".repeat(129), strongPassword())).statusCode).toBe(404);
  });

  it("refuses a mismatch on confirm_password and a weak password on new_password, keeping the link", async () => {
    const user = await t.user({ name: "Evangeline Marsh" });
    const token = await resetTokenFor(user.email);

    const mismatch = await confirm(token, {
      new_password: strongPassword(),
      confirm_password: strongPassword(),
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toEqual({ confirm_password: ["The two password fields didn't match."] });

    for (const weak of ["password", "evangelinemarsh"]) {
      const response = await setPassword(token, weak);
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json())).toEqual(["new_password"]);
      expect(response.json<{ new_password: string[] }>().new_password[0]).toMatch(
        /^This password is too easy to guess\./,
      );
    }

    const missing = await t.anonymous.callUnchecked(credentialRoutes.confirmPasswordReset, { token });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      new_password: ["This field is required."],
      confirm_password: ["This field is required."],
    });

    // None of the refusals used the link up.
    expect((await setPassword(token, strongPassword())).statusCode).toBe(204);
  });

  it("accepts a form-encoded confirmation", async () => {
    const user = await t.user();
    const token = await resetTokenFor(user.email);
    const password = strongPassword();
    const response = await t.inject({
      method: "POST",
      url: `/api/v1/password-reset/${token}/confirm/`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `new_password=${encodeURIComponent(password)}&confirm_password=${encodeURIComponent(password)}`,
    });
    expect(response.statusCode, response.body).toBe(204);
    expect((await kit.login(user.email, password)).statusCode).toBe(200);
  });
});
