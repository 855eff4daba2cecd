import { credentialRoutes } from "@allot/contract/credentials/routes";
import { emailChanges } from "@allot/db/schema/credential-tokens";
import { notifications } from "@allot/db/schema/notifications";
import { users } from "@allot/db/schema/users";
import { testEngines } from "@allot/db/testing/test-databases";
import { sha256 } from "@allot/domain/auth/token-digest";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { credentialsKit, tokenInLink } from "../../../test/testing/credentials-test-kit";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import { useTestMailbox } from "../../../test/testing/test-mailbox";

const LINK = "/links/email-change/";
const DAY_MS = 86_400_000;
let addresses = 0;
const freshAddress = (label = "new") => `${label}${++addresses}-${Date.now()}@example.com`;

describe.each(testEngines())("email change over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  const kit = credentialsKit(t);

  const requestChange = (authorization: string, newEmail: string) =>
    t.as(authorization).call(credentialRoutes.changeEmail, { new_email: newEmail });
  const confirm = (token: string) => t.anonymous.call(credentialRoutes.confirmEmailChange, { token });
  const revoke = (token: string) => t.anonymous.call(credentialRoutes.revokeEmailChange, { token });

  /** Requests a change and reads both tokens from the two emails it sent. */
  async function startChange(user: { bearer: string; email: string }, newEmail = freshAddress()) {
    const response = await requestChange(user.bearer, newEmail);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.body).toBe("");
    const toNew = await mailbox.latestTo(newEmail);
    const toOld = await mailbox.latestTo(user.email);
    const confirmLink = mailbox.linkIn(toNew, LINK);
    const revokeLink = mailbox.linkIn(toOld, LINK);
    expect(confirmLink).toMatch(/^http:\/\/allot\.test\/links\/email-change\/[\w-]{43}\/confirm$/);
    expect(revokeLink).toMatch(/^http:\/\/allot\.test\/links\/email-change\/[\w-]{43}\/revoke$/);
    expect(toOld.text).toContain(newEmail);
    return {
      newEmail,
      confirmToken: tokenInLink(confirmLink, LINK),
      revokeToken: tokenInLink(revokeLink, LINK),
    };
  }

  /** The user's notifications of the email change, oldest first. */
  const emailNotes = async (userId: number) =>
    (
      await t.db
        .select({ kind: notifications.kind, payload: notifications.payload })
        .from(notifications)
        .where(eq(notifications.userId, userId))
        .orderBy(asc(notifications.createdAt))
    )
      .filter((n) => n.kind.startsWith("email_change"))
      .map(({ kind, payload }) => ({ kind, payload }));

  it("changes the email on confirmation; revoking from the old address reverts it and ends every session", async () => {
    const user = await t.user();
    const apiKey = await t.apiKey(user);
    const change = await startChange(user);
    // Nothing moves before confirmation.
    expect((await kit.me(user.bearer)).json().email).toBe(user.email);

    const confirmed = await confirm(change.confirmToken);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.body).toBe("");
    const me = (await kit.me(user.bearer)).json();
    // The username was the address: it follows, so the old address is free for someone else's username.
    expect(me).toMatchObject({ email: change.newEmail, username: change.newEmail.toLowerCase() });
    expect((await kit.login(user.email, user.password)).statusCode).toBe(401);
    const newSession = await kit.session(change.newEmail.toUpperCase(), user.password);
    expect(await kit.sessionStatus(newSession)).toEqual([200, 200]);

    expect(await emailNotes(user.id)).toEqual([
      { kind: "email_change_requested", payload: { new_email: change.newEmail } },
      { kind: "email_changed", payload: { previous_email: user.email, email: change.newEmail } },
    ]);

    const revoked = await revoke(change.revokeToken);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.body).toBe("");
    expect(await kit.sessionStatus(newSession)).toEqual([401, 401]);
    expect((await kit.me(user.bearer)).statusCode).toBe(401);
    expect((await kit.login(change.newEmail, user.password)).statusCode).toBe(401);
    // The password is unusable until the owner resets it (the intruder may have set it).
    expect((await kit.login(user.email, user.password)).statusCode).toBe(401);
    // An API key made before the change was requested keeps working.
    expect((await kit.me(apiKey)).json()).toMatchObject({
      email: user.email,
      username: user.username,
      has_usable_password: false,
    });
    expect((await emailNotes(user.id))[2]).toEqual({
      kind: "email_changed",
      payload: { previous_email: change.newEmail, email: user.email, reverted: true },
    });

    // Both links are spent now.
    expect((await revoke(change.revokeToken)).statusCode).toBe(400);
    expect((await confirm(change.confirmToken)).statusCode).toBe(400);
  });

  it("settles a concurrent confirm and revoke one after the other: the old address stays", async () => {
    const user = await t.user();
    const change = await startChange(user);
    const [confirmed, revoked] = await Promise.all([
      confirm(change.confirmToken),
      revoke(change.revokeToken),
    ]);
    // Revoke first: the confirm finds a cancelled change (400). Confirm first: the revoke reverts it.
    expect(revoked.statusCode).toBe(200);
    expect([200, 400]).toContain(confirmed.statusCode);
    const [row] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
    expect(row?.email).toBe(user.email);
  });

  it("kills reset links sent to the new address when the change is revoked", async () => {
    const user = await t.user();
    const change = await startChange(user);
    expect((await confirm(change.confirmToken)).statusCode).toBe(200);
    // Whoever holds the new address asks for a reset link…
    expect(
      (await t.anonymous.call(credentialRoutes.requestPasswordReset, { email: change.newEmail })).statusCode,
    ).toBe(204);
    const resetLink = mailbox.linkIn(await mailbox.latestTo(change.newEmail), "/links/password-reset/");
    // …and the owner revokes from the old address before it is used.
    expect((await revoke(change.revokeToken)).statusCode).toBe(200);
    const password = "plum sofa quietly river intruder";
    const reset = await t.anonymous.call(credentialRoutes.confirmPasswordReset, {
      token: tokenInLink(resetLink, "/links/password-reset/"),
      new_password: password,
      confirm_password: password,
    });
    expect(reset.statusCode).toBe(400);
    const [row] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
    expect(row?.email).toBe(user.email);
  });

  it("cancels a pending change from the old address's link", async () => {
    const user = await t.user();
    const change = await startChange(user);
    expect((await revoke(change.revokeToken)).statusCode).toBe(200);
    const cancelled = await confirm(change.confirmToken);
    expect(cancelled.statusCode).toBe(400);
    expect(cancelled.json()).toEqual({
      non_field_errors: ["This email change was cancelled or replaced by a newer one."],
    });
    expect((await kit.me(user.bearer)).json().email).toBe(user.email);
    // Cancelling a pending change leaves sessions alone, and a new change may be asked for at once.
    expect((await kit.me(user.bearer)).statusCode).toBe(200);
    expect((await requestChange(user.bearer, freshAddress())).statusCode).toBe(201);
  });

  it("keeps a username that was not the address", async () => {
    const user = await t.user();
    await t.db
      .update(users)
      .set({ username: `custom-${user.id}` })
      .where(eq(users.id, user.id));
    const change = await startChange(user);
    expect((await confirm(change.confirmToken)).statusCode).toBe(200);
    expect((await kit.me(user.bearer)).json()).toMatchObject({
      email: change.newEmail,
      username: `custom-${user.id}`,
    });
  });

  it("refuses a taken address with 409, case-insensitively, and the caller's own with 400", async () => {
    const user = await t.user();
    const other = await t.user();
    const taken = await requestChange(user.bearer, other.email.toUpperCase());
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ detail: "This email address is already in use.", code: "email_taken" });

    const own = await requestChange(user.bearer, user.email.toUpperCase());
    expect(own.statusCode).toBe(400);
    expect(own.json()).toEqual({ new_email: ["This is already your email address."] });
    expect(await mailbox.messagesTo(other.email)).toEqual([]);
  });

  it("refuses a new change with 409 while the last one can be revoked, and allows it after 7 days", async () => {
    const user = await t.user();
    const change = await startChange(user);
    expect((await confirm(change.confirmToken)).statusCode).toBe(200);
    const bearer = (await kit.session(change.newEmail, user.password)).bearer;

    const blocked = await requestChange(bearer, freshAddress());
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json<{ code: string }>().code).toBe("revocation_window_open");

    // The old address is held for the revoke: nobody else may take it meanwhile.
    const other = await t.user();
    const reserved = await requestChange(other.bearer, user.email);
    expect(reserved.statusCode).toBe(409);
    expect(reserved.json<{ code: string }>().code).toBe("email_taken");

    // Eight days later the window has closed: the revoke link is spent and a new change is fine.
    await t.db
      .update(emailChanges)
      .set({ confirmedAt: new Date(Date.now() - 8 * DAY_MS) })
      .where(eq(emailChanges.revokeTokenDigest, sha256(change.revokeToken)));
    const late = await revoke(change.revokeToken);
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({
      non_field_errors: ["The 7 days to revoke this email change have passed."],
    });
    expect((await kit.me(bearer)).json().email).toBe(change.newEmail);
    expect((await requestChange(bearer, freshAddress())).statusCode).toBe(201);
    expect((await requestChange(other.bearer, user.email)).statusCode).toBe(201);
  });

  it("supersedes a pending change with a newer request: the older links stop working", async () => {
    const user = await t.user();
    const first = await startChange(user);
    const second = await startChange(user);
    expect((await confirm(first.confirmToken)).statusCode).toBe(400);
    expect((await revoke(first.revokeToken)).statusCode).toBe(400);
    expect((await confirm(second.confirmToken)).statusCode).toBe(200);
    expect((await kit.me(user.bearer)).json().email).toBe(second.newEmail);
  });

  it("refuses a used or expired confirm link with 400 and an unknown token with 404", async () => {
    const user = await t.user();
    const change = await startChange(user);
    await t.db
      .update(emailChanges)
      .set({ confirmExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailChanges.confirmTokenDigest, sha256(change.confirmToken)));
    const expired = await confirm(change.confirmToken);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ non_field_errors: ["This email-change link has expired."] });
    expect((await revoke(change.revokeToken)).statusCode).toBe(400);
    expect((await kit.me(user.bearer)).json().email).toBe(user.email);

    const fresh = await startChange(user);
    expect((await confirm(fresh.confirmToken)).statusCode).toBe(200);
    const used = await confirm(fresh.confirmToken);
    expect(used.statusCode).toBe(400);
    expect(used.json()).toEqual({ non_field_errors: ["This email change has already been confirmed."] });

    for (const response of [await confirm("unknown-token"), await revoke("unknown-token")]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: "This email-change link is not valid.", code: "not_found" });
    }
    // A confirm token is no revoke token, and the other way round.
    expect((await revoke(fresh.confirmToken)).statusCode).toBe(404);
    expect((await confirm(fresh.revokeToken)).statusCode).toBe(404);
    // Public, but a bad credential sent along is still 401.
    const badCredential = await t
      .as("Bearer not-a-token")
      .call(credentialRoutes.revokeEmailChange, { token: fresh.revokeToken });
    expect(badCredential.statusCode).toBe(401);
  });

  it("answers 409 on confirmation when someone else took the address meanwhile", async () => {
    const user = await t.user();
    const change = await startChange(user);
    const other = await t.user();
    await t.db.update(users).set({ email: change.newEmail }).where(eq(users.id, other.id));
    const response = await confirm(change.confirmToken);
    expect(response.statusCode).toBe(409);
    expect((await kit.me(user.bearer)).json().email).toBe(user.email);
  });

  it("refuses API keys and users without a usable password with 403", async () => {
    const user = await t.user();
    const byKey = await requestChange(await t.apiKey(user), freshAddress());
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json<{ code: string }>().code).toBe("interactive_login_required");

    const session = await kit.session(user.email, user.password);
    await kit.dropPassword(user.id);
    const passwordless = await requestChange(session.bearer, freshAddress());
    expect(passwordless.statusCode).toBe(403);
    expect(passwordless.json<{ code: string }>().code).toBe("no_usable_password");
  });

  it("validates new_email", async () => {
    const user: TestUser = await t.user();
    for (const [value, message] of [
      [undefined, "This field is required."],
      ["not-an-address", "Enter a valid email address."],
      [`${"a".repeat(140)}@example.com`, "Ensure this field has no more than 150 characters."],
    ] as const) {
      const response = await t.as(user).callUnchecked(credentialRoutes.changeEmail, { new_email: value });
      expect(response.statusCode, String(value)).toBe(400);
      expect(response.json()).toEqual({ new_email: [message] });
    }
  });
});
