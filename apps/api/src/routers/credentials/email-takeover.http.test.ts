import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { credentialRoutes } from "@allot/contract/credentials/routes";
import { emailChanges } from "@allot/db/schema/credential-tokens";
import { testEngines } from "@allot/db/testing/test-databases";
import { sha256 } from "@allot/domain/auth/token-digest";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { credentialsKit, strongPassword, tokenInLink } from "../../../test/testing/credentials-test-kit";
import { useTestApp } from "../../../test/testing/test-app";
import { useTestMailbox } from "../../../test/testing/test-mailbox";

const CHANGE_LINK = "/links/email-change/";
const RESET_LINK = "/links/password-reset/";
const DAY_MS = 86_400_000;

/**
 * Issue 14, item 3: a stolen session moves the login email to the intruder's address, confirms it,
 * resets the password through it and makes an API key. The owner's revoke link must undo all of it.
 */
describe.each(testEngines())("undoing an email-change takeover over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  const kit = credentialsKit(t);
  let counter = 0;

  const requestChange = (authorization: string, newEmail: string) =>
    t.as(authorization).call(credentialRoutes.changeEmail, { new_email: newEmail });
  const resetWith = async (message: Parameters<typeof mailbox.linkIn>[0], password: string) =>
    t.anonymous.call(credentialRoutes.confirmPasswordReset, {
      token: tokenInLink(mailbox.linkIn(message, RESET_LINK), RESET_LINK),
      new_password: password,
      confirm_password: password,
    });
  /** The page the owner's revoke link opens, and its button pressed. */
  const pressRevoke = (link: string) =>
    t.inject({
      method: "POST",
      url: new URL(link).pathname,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "",
    });

  async function takeOver() {
    counter += 1;
    const owner = await t.user();
    const olderKey = await t.apiKey(owner, "before the change");
    const stolen = await kit.session(owner.email, owner.password);
    const intruderEmail = `intruder${counter}-${Date.now()}@example.net`;

    expect((await requestChange(stolen.bearer, intruderEmail)).statusCode).toBe(201);
    const revokeLink = mailbox.linkIn(await mailbox.latestTo(owner.email), CHANGE_LINK);
    const confirmLink = mailbox.linkIn(await mailbox.latestTo(intruderEmail), CHANGE_LINK);
    const confirmed = await t.anonymous.call(credentialRoutes.confirmEmailChange, {
      token: tokenInLink(confirmLink, CHANGE_LINK),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const requested = await t.anonymous.call(credentialRoutes.requestPasswordReset, { email: intruderEmail });
    expect(requested.statusCode).toBe(204);
    const intruderPassword = strongPassword();
    expect((await resetWith(await mailbox.latestTo(intruderEmail), intruderPassword)).statusCode).toBe(204);
    const intruder = await kit.session(intruderEmail, intruderPassword);
    const created = await t.as(intruder.bearer).call(apiKeyRoutes.create, { name: "mine now" });
    expect(created.statusCode, created.body).toBe(201);
    const intruderKey = `Api-Key ${created.json().key}`;
    // The takeover worked: every credential of the intruder's is live.
    expect(await kit.sessionStatus(intruder)).toEqual([200, 200]);
    expect((await kit.me(intruderKey)).statusCode).toBe(200);

    return { owner, olderKey, intruderEmail, intruderPassword, intruder, intruderKey, revokeLink };
  }

  it("gives the account back: the intruder's password, key and sessions die, the owner gets a reset link", async () => {
    const attack = await takeOver();
    const { owner } = attack;
    const resetsBefore = (await mailbox.messagesTo(owner.email)).filter((m) => m.kind === "password_reset");
    expect(resetsBefore).toEqual([]);

    const revoked = await pressRevoke(attack.revokeLink);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.body).toContain("Email change undone");

    // The intruder's password works under neither address.
    expect((await kit.login(attack.intruderEmail, attack.intruderPassword)).statusCode).toBe(401);
    expect((await kit.login(owner.email, attack.intruderPassword)).statusCode).toBe(401);
    // The key made after the change request is revoked; the owner's older key still works.
    const byIntruderKey = await kit.me(attack.intruderKey);
    expect(byIntruderKey.statusCode).toBe(401);
    expect(byIntruderKey.json<{ detail: string }>().detail).toBe(
      "Invalid API key: the key has been revoked.",
    );
    expect((await kit.me(attack.olderKey)).statusCode).toBe(200);
    // Access token and refresh cookie of the intruder's session are both refused.
    expect(await kit.sessionStatus(attack.intruder)).toEqual([401, 401]);

    // The owner chooses a new password through the link sent to the restored address.
    const resets = (await mailbox.messagesTo(owner.email)).filter((m) => m.kind === "password_reset");
    expect(resets).toHaveLength(1);
    const [reset] = resets;
    if (!reset) throw new Error("no reset email");
    expect(reset.subject).toBe("Your Allot email change was undone: choose a new password");
    expect(mailbox.linkIn(reset, RESET_LINK)).toMatch(
      /^http:\/\/allot\.test\/links\/password-reset\/[\w-]{43}$/,
    );
    // Only the intruder's own earlier reset ever went to the intruder's address.
    const toIntruder = await mailbox.messagesTo(attack.intruderEmail);
    expect(toIntruder.filter((m) => m.kind === "password_reset")).toHaveLength(1);
    const newPassword = strongPassword();
    expect((await resetWith(reset, newPassword)).statusCode).toBe(204);
    const back = await kit.session(owner.email, newPassword);
    expect((await kit.me(back.bearer)).json()).toMatchObject({
      email: owner.email,
      username: owner.username,
      has_usable_password: true,
    });

    // No new change until the revoked change's window (7 days after its confirmation) has run out.
    const again = await requestChange(back.bearer, `again${counter}-${Date.now()}@example.com`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: "email_change_undone",
      detail: expect.stringMatching(
        /^Your last email change was undone from the previous address; for safety, a new change can be requested from \d{4}-\d\d-\d\dT/,
      ),
    });
    await t.db
      .update(emailChanges)
      .set({ confirmedAt: new Date(Date.now() - 7 * DAY_MS - 60_000) })
      .where(eq(emailChanges.revokeTokenDigest, sha256(tokenInLink(attack.revokeLink, CHANGE_LINK))));
    expect((await requestChange(back.bearer, `later${counter}-${Date.now()}@example.com`)).statusCode).toBe(
      201,
    );
  });

  it("undoes the takeover through the JSON endpoint too, with the old password no longer usable", async () => {
    const attack = await takeOver();
    const revoked = await t.anonymous.call(credentialRoutes.revokeEmailChange, {
      token: tokenInLink(attack.revokeLink, CHANGE_LINK),
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    // Nobody's password is good any more, the owner's old one included, until a reset.
    expect((await kit.login(attack.owner.email, attack.owner.password)).statusCode).toBe(401);
    expect((await kit.login(attack.owner.email, attack.intruderPassword)).statusCode).toBe(401);
    expect((await kit.me(attack.olderKey)).json()).toMatchObject({
      email: attack.owner.email,
      has_usable_password: false,
    });
  });
});
