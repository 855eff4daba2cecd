import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { credentialRoutes } from "@allot/contract/credentials/routes";
import { webhookRoutes } from "@allot/contract/webhooks/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { credentialsKit, strongPassword, tokenInLink } from "../../../test/testing/credentials-test-kit";
import { anAccount, aTransaction } from "../../../test/testing/fixtures";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import { useTestMailbox } from "../../../test/testing/test-mailbox";
import { useWebhookReceiver } from "../../../test/testing/webhook-receiver";
import { webhooksKit } from "../../../test/testing/webhooks-test-kit";

const CHANGE_LINK = "/links/email-change/";
const RESET_LINK = "/links/password-reset/";

/**
 * Issue 31, security 1: a webhook answers to the credential that made it (decision 0048). Revoking
 * that key, or signing that login out by a reset or an undone email change, silences it; so does
 * undoing an email change for everything made since its request; and the owner hears of each one.
 */
describe.each(testEngines())("webhooks over HTTP: the credential behind a webhook (%s)", (engine) => {
  const t = useTestApp(engine);
  const receiver = useWebhookReceiver();
  const hooks = webhooksKit(t);
  const mailbox = useTestMailbox(() => t.db);
  const credentials = credentialsKit(t);
  let counter = 0;

  /** A user with an account, an API key made at the start, and a second login (the stolen one). */
  async function anOwner() {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const key = await aKey(owner, "bank sync");
    const stolen = await credentials.session(owner.email, owner.password);
    return { owner, account, key, stolen };
  }
  async function aKey(owner: TestUser, name: string) {
    const created = await t.as(owner).call(apiKeyRoutes.create, { name });
    expect(created.statusCode, created.body).toBe(201);
    const { key, uuid, prefix } = created.json();
    return { header: `Api-Key ${key}`, uuid, prefix, name };
  }
  /** A new transaction in the account, then one sender pass: the paths the receiver got for it. */
  async function deliveredPathsOfANewTransaction(by: string | TestUser, account: { id: string }) {
    receiver.reset();
    await aTransaction(t, by, account, { raw_description: `COFFEE ${++counter}` });
    await hooks.deliver();
    return receiver.received().map((request) => request.path);
  }
  /** The webhook as its owner sees it, through a credential still live. */
  const webhookOf = async (caller: string | TestUser, id: string) =>
    (await t.as(caller).call(webhookRoutes.get, { id })).json();
  /** A reset asked for by address and confirmed through the emailed link. */
  async function resetPassword(email: string) {
    expect((await t.anonymous.call(credentialRoutes.requestPasswordReset, { email })).statusCode).toBe(204);
    return confirmResetFrom(await mailbox.latestTo(email));
  }
  async function confirmResetFrom(message: Awaited<ReturnType<typeof mailbox.latestTo>>) {
    const password = strongPassword();
    const confirmed = await t.anonymous.call(credentialRoutes.confirmPasswordReset, {
      token: tokenInLink(mailbox.linkIn(message, RESET_LINK), RESET_LINK),
      new_password: password,
      confirm_password: password,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(204);
    return password;
  }
  /** The intruder moves the login email to their address and confirms it: the owner's revoke link. */
  async function changeEmailWith(bearer: string, owner: TestUser) {
    const intruderEmail = `intruder${++counter}-${Date.now()}@example.net`;
    const requested = await t.as(bearer).call(credentialRoutes.changeEmail, { new_email: intruderEmail });
    expect(requested.statusCode, requested.body).toBe(201);
    const revokeLink = mailbox.linkIn(await mailbox.latestTo(owner.email), CHANGE_LINK);
    const confirmLink = mailbox.linkIn(await mailbox.latestTo(intruderEmail), CHANGE_LINK);
    const confirmed = await t.anonymous.call(credentialRoutes.confirmEmailChange, {
      token: tokenInLink(confirmLink, CHANGE_LINK),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { revokeToken: tokenInLink(revokeLink, CHANGE_LINK) };
  }

  it("the review's reproduction: a stolen login's webhook is silent once the owner revokes the change and resets", async () => {
    const { owner, account, stolen } = await anOwner();
    const planted = await hooks.webhook(stolen.bearer, {
      url: `${receiver.url}/planted`,
      event_types: ["*"],
    });
    // It works: the intruder's receiver gets the owner's transactions.
    expect(await deliveredPathsOfANewTransaction(owner, account)).toEqual(["/planted"]);

    const change = await changeEmailWith(stolen.bearer, owner);
    const revoked = await t.anonymous.call(credentialRoutes.revokeEmailChange, { token: change.revokeToken });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const resets = (await mailbox.messagesTo(owner.email)).filter((m) => m.kind === "password_reset");
    const [reset] = resets.slice(-1);
    if (!reset) throw new Error("no reset link after the revoke");
    const password = await confirmResetFrom(reset);
    const back = await credentials.session(owner.email, password);

    expect(await deliveredPathsOfANewTransaction(back.bearer, account)).toEqual([]);
    expect(await webhookOf(back.bearer, planted.id)).toMatchObject({
      enabled: false,
      disabled_reason: "credential_revoked",
      credential: { kind: "login", api_key: null },
    });
  });

  it("a password reset disables the webhooks of the logins it signs out; an API key's keep sending", async () => {
    const { owner, account, key, stolen } = await anOwner();
    const byLogin = await hooks.webhook(stolen.bearer, { url: `${receiver.url}/by-login` });
    const byKey = await hooks.webhook(key.header, { url: `${receiver.url}/by-key` });
    expect((await deliveredPathsOfANewTransaction(owner, account)).sort()).toEqual(["/by-key", "/by-login"]);

    await resetPassword(owner.email);

    expect(await deliveredPathsOfANewTransaction(key.header, account)).toEqual(["/by-key"]);
    expect(await webhookOf(key.header, byLogin.id)).toMatchObject({
      enabled: false,
      disabled_reason: "credential_revoked",
    });
    expect(await webhookOf(key.header, byKey.id)).toMatchObject({
      enabled: true,
      disabled_reason: null,
      credential: { kind: "api_key", api_key: key.uuid },
    });
  });

  it("a password change disables the webhooks of the other logins it signs out, not the caller's own", async () => {
    const { owner, account, stolen } = await anOwner();
    const mine = await credentials.session(owner.email, owner.password);
    const planted = await hooks.webhook(stolen.bearer, { url: `${receiver.url}/planted` });
    const own = await hooks.webhook(mine.bearer, { url: `${receiver.url}/own` });
    const password = strongPassword();
    const changed = await t.as(mine.bearer).call(credentialRoutes.changePassword, {
      current_password: owner.password,
      new_password: password,
      confirm_password: password,
    });
    expect(changed.statusCode, changed.body).toBe(204);

    expect(await deliveredPathsOfANewTransaction(mine.bearer, account)).toEqual(["/own"]);
    expect((await webhookOf(mine.bearer, planted.id)).disabled_reason).toBe("credential_revoked");
    expect((await webhookOf(mine.bearer, own.id)).enabled).toBe(true);
  });

  it("revoking an API key disables its webhooks, pending deliveries included; revoke-all the rest", async () => {
    const { owner, account, key } = await anOwner();
    const other = await aKey(owner, "dashboard");
    const byKey = await hooks.webhook(key.header, { url: `${receiver.url}/by-key` });
    const byOther = await hooks.webhook(other.header, { url: `${receiver.url}/by-other` });
    // An event queued for both before the revocation, not yet sent.
    await aTransaction(t, owner, account, { raw_description: "QUEUED BEFORE" });

    const revoked = await t.as(owner).call(apiKeyRoutes.revoke, { uuid: key.uuid });
    expect(revoked.statusCode, revoked.body).toBe(200);
    receiver.reset();
    await hooks.deliver();
    expect(receiver.received().map((r) => r.path)).toEqual(["/by-other"]);
    const [queued] = (await t.as(owner).call(webhookRoutes.listDeliveries, { id: byKey.id })).json().results;
    expect(queued).toMatchObject({
      status: "failed",
      attempts: 0,
      last_error: "Not sent: the credential that created the webhook was revoked, which disabled it.",
    });
    expect(await webhookOf(owner, byKey.id)).toMatchObject({
      enabled: false,
      disabled_reason: "credential_revoked",
      credential: { kind: "api_key", api_key: key.uuid },
    });
    // The revoked key cannot switch its webhook back on.
    expect(
      (await t.as(key.header).call(webhookRoutes.update, { id: byKey.id, enabled: true })).statusCode,
    ).toBe(401);

    expect((await t.as(owner).call(apiKeyRoutes.revokeAll)).json()).toEqual({ revoked: 1 });
    expect(await deliveredPathsOfANewTransaction(owner, account)).toEqual([]);
    expect((await webhookOf(owner, byOther.id)).disabled_reason).toBe("credential_revoked");
  });

  it("the owner may enable a revoked credential's webhook again: it then answers to them, and they are told", async () => {
    const { owner, account, key } = await anOwner();
    const hook = await hooks.webhook(key.header, { url: `${receiver.url}/reviewed` });
    expect((await t.as(owner).call(apiKeyRoutes.revoke, { uuid: key.uuid })).statusCode).toBe(200);
    const deputy = await aKey(owner, "deputy");

    const enabled = await t.as(deputy.header).call(webhookRoutes.update, { id: hook.id, enabled: true });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toMatchObject({
      enabled: true,
      disabled_reason: null,
      credential: { kind: "api_key", api_key: deputy.uuid },
    });
    const told = await mailbox.latestTo(owner.email);
    expect(told.kind).toBe("webhook_created");
    expect(told.subject).toBe("A webhook of your Allot account was enabled again");
    expect(told.text).toContain(`with your API key “deputy” (${deputy.prefix}…)`);
    expect(await deliveredPathsOfANewTransaction(owner, account)).toEqual(["/reviewed"]);

    // It now answers to the key that took it back: revoking that one silences it again.
    expect((await t.as(owner).call(apiKeyRoutes.revoke, { uuid: deputy.uuid })).statusCode).toBe(200);
    expect(await deliveredPathsOfANewTransaction(owner, account)).toEqual([]);
  });

  it("undoing an email change disables every webhook created since its request, whatever made it", async () => {
    const { owner, account, key, stolen } = await anOwner();
    const before = await hooks.webhook(key.header, { url: `${receiver.url}/before` });
    const change = await changeEmailWith(stolen.bearer, owner);
    // After the request, by a key the owner made long before it (the revert keeps that key).
    const since = await hooks.webhook(key.header, { url: `${receiver.url}/since` });
    expect((await deliveredPathsOfANewTransaction(key.header, account)).sort()).toEqual([
      "/before",
      "/since",
    ]);

    const revoked = await t.anonymous.call(credentialRoutes.revokeEmailChange, { token: change.revokeToken });
    expect(revoked.statusCode, revoked.body).toBe(200);

    expect((await credentials.me(key.header)).statusCode).toBe(200);
    expect(await deliveredPathsOfANewTransaction(key.header, account)).toEqual(["/before"]);
    expect(await webhookOf(key.header, since.id)).toMatchObject({
      enabled: false,
      disabled_reason: "email_change_undone",
      credential: { kind: "api_key", api_key: key.uuid },
    });
    expect((await webhookOf(key.header, before.id)).enabled).toBe(true);
  });

  it("emails the owner on every webhook created, naming the receiver's host and the credential, never the path", async () => {
    const { owner, key, stolen } = await anOwner();
    const port = new URL(receiver.url).port;
    await hooks.webhook(key.header, { url: `http://localhost:${port}/T0k3n-in-path/x?k=secret` });
    const byKey = await mailbox.latestTo(owner.email);
    expect(byKey).toMatchObject({
      kind: "webhook_created",
      subject: "A webhook was added to your Allot account",
    });
    expect(byKey.text).toContain(
      `A webhook was created with your API key “bank sync” (${key.prefix}…): Allot now sends every event of your accounts to localhost.`,
    );
    expect(byKey.text).not.toContain("T0k3n-in-path");
    expect(byKey.html).not.toContain("T0k3n-in-path");
    expect(byKey.text).not.toContain("secret");

    await hooks.webhook(stolen.bearer, {
      url: `${receiver.url}/hook`,
      event_types: ["transaction.created", "budget.updated"],
    });
    const byLogin = await mailbox.latestTo(owner.email);
    expect(byLogin.text).toContain(
      "A webhook was created with your login: Allot now sends events of your accounts (transaction.created, budget.updated) to 127.0.0.1.",
    );
    expect((await mailbox.messagesTo(owner.email)).filter((m) => m.kind === "webhook_created")).toHaveLength(
      2,
    );
  });
});
