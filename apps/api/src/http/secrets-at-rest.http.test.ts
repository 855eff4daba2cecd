import { createHash, randomUUID } from "node:crypto";
import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { credentialRoutes } from "@allot/contract/credentials/routes";
import { invitationRoutes } from "@allot/contract/invitations/routes";
import { webhookRoutes } from "@allot/contract/webhooks/routes";
import { emailOutbox } from "@allot/db/schema/email-outbox";
import { idempotencyKeys } from "@allot/db/schema/idempotency-keys";
import { webhooks } from "@allot/db/schema/webhooks";
import { testEngines } from "@allot/db/testing/test-databases";
import { issueQueuedPasswordResets } from "@allot/domain/credentials/issue-queued-password-resets";
import { requestDigest } from "@allot/domain/idempotency/request-fingerprint";
import { sealStoredSecrets } from "@allot/domain/secrets/seal-stored-secrets";
import { isSealed, secretVault } from "@allot/domain/secrets/secret-vault";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { openedOutboxRow } from "@allot/domain/testing/opened-outbox-row";
import { TEST_SECRETS_KEYS } from "@allot/domain/testing/test-vault";
import { deliverDueWebhooks } from "@allot/domain/webhooks/deliver-webhooks";
import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { databaseDump } from "../../test/testing/database-dump";
import { aBudget, anAccount } from "../../test/testing/fixtures";
import { testConfig, useTestApp } from "../../test/testing/test-app";
import { type DeliveredEmail, useTestMailbox } from "../../test/testing/test-mailbox";
import { useWebhookReceiver } from "../../test/testing/webhook-receiver";
import { webhooksKit } from "../../test/testing/webhooks-test-kit";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
// The path as the procedure sees it (below `/api`).
const API_KEYS_PATH = "/v1/users/me/api-keys/";
const NEW_PASSWORD = "plum-orbit-harvest-92-secrets";

/** What a dump must not hold of a webhook secret: the whole value, and its key's base64 alone. */
const secretForms = (secret: string) => [secret, secret.replace(/^whsec_/, "")];

/*
 * Issue 31, Security 2 and 3 (decision 0049): no secret is kept in clear at rest. Keyed answers
 * that show a credential once are sealed in the idempotency store and replayed as answered; the
 * webhooks' signing secrets are sealed and still sign; fingerprints are keyed and leave passwords
 * out; queued emails keep their bodies (and the link tokens in them) sealed until sent; what was
 * stored in clear before is converted at start-up.
 */
describe.each(testEngines())("secrets at rest (%s)", (engine) => {
  const t = useTestApp(engine);
  const receiver = useWebhookReceiver();
  const kit = webhooksKit(t);
  const mailbox = useTestMailbox(() => t.db);

  /** The token a delivered message's link carries: the path's segment after `path`. */
  const tokenIn = (message: DeliveredEmail | undefined, path: string) => {
    if (!message) throw new Error(`no message with a ${path} link`);
    const token = mailbox.linkIn(message, path).split(path)[1]?.split("/")[0];
    if (!token) throw new Error(`no token after ${path}`);
    return token;
  };
  /** What the email-delivery loop does before it sends: queued reset requests become emails. */
  const issueQueuedResets = () =>
    issueQueuedPasswordResets(internalContext(t.db, "scheduler"), {
      publicBaseUrl: testConfig().publicBaseUrl,
      vault: t.vault,
    });

  it("keeps no API key, webhook secret or password of a keyed write in any table, and replays each answer as given", async () => {
    const owner = await t.user();
    const as = t.as(owner);
    const keyed = () => ({ headers: { "idempotency-key": randomUUID() } });

    const apiKeyCall = keyed();
    const created = await as.call(apiKeyRoutes.create, { name: "nightly import" }, apiKeyCall);
    expect(created.statusCode, created.body).toBe(201);
    const apiKey: string = created.json().key;
    const apiKeyReplay = await as.call(apiKeyRoutes.create, { name: "nightly import" }, apiKeyCall);
    expect(apiKeyReplay.statusCode).toBe(201);
    expect(apiKeyReplay.headers["idempotent-replayed"]).toBe("true");
    // The same key, so a client whose first answer was lost keeps a working key, and no second one.
    expect(apiKeyReplay.json()).toEqual(created.json());
    expect((await as.call(apiKeyRoutes.list, {})).json().results).toHaveLength(1);

    const hookCall = keyed();
    const hook = await as.call(
      webhookRoutes.create,
      { url: `${receiver.url}/rest`, event_types: ["*"] },
      hookCall,
    );
    expect(hook.statusCode, hook.body).toBe(201);
    const hookReplay = await as.call(
      webhookRoutes.create,
      { url: `${receiver.url}/rest`, event_types: ["*"] },
      hookCall,
    );
    expect(hookReplay.headers["idempotent-replayed"]).toBe("true");
    expect(hookReplay.json()).toEqual(hook.json());
    const firstSecret: string = hook.json().secret;

    const rotateCall = keyed();
    const rotated = await as.call(webhookRoutes.rotateSecret, { id: hook.json().id }, rotateCall);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const rotatedSecret: string = rotated.json().secret;
    const rotateReplay = await as.call(webhookRoutes.rotateSecret, { id: hook.json().id }, rotateCall);
    expect(rotateReplay.headers["idempotent-replayed"]).toBe("true");
    expect(rotateReplay.json().secret).toBe(rotatedSecret);

    const passwordInput = {
      current_password: owner.password,
      new_password: NEW_PASSWORD,
      confirm_password: NEW_PASSWORD,
    };
    const passwordCall = keyed();
    const changed = await as.call(credentialRoutes.changePassword, passwordInput, passwordCall);
    expect(changed.statusCode, changed.body).toBe(204);
    const changeReplay = await as.call(credentialRoutes.changePassword, passwordInput, passwordCall);
    expect(changeReplay.statusCode).toBe(204);
    expect(changeReplay.headers["idempotent-replayed"]).toBe("true");

    const dump = await databaseDump(t.db);
    for (const secret of [apiKey, ...secretForms(firstSecret), ...secretForms(rotatedSecret)])
      expect(dump.includes(secret), "a secret is in the dump").toBe(false);
    // The key's digest as the API keys table keeps it is no secret; its plaintext's SHA-256 is.
    for (const password of [owner.password, NEW_PASSWORD]) {
      expect(dump.includes(password), "a password is in the dump").toBe(false);
      expect(dump.includes(sha256(password)), "a password's SHA-256 is in the dump").toBe(false);
    }
    // Nor the fast, unkeyed fingerprint the change-password was once kept under.
    const changePath = "/v1/users/me/change-password/";
    expect(dump).not.toContain(sha256(JSON.stringify(["POST", changePath, passwordInput])));
    expect(dump).not.toContain(requestDigest("POST", changePath, passwordInput));
    // The records are there (four keyed writes of this user), sealed.
    const records = await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, owner.id));
    expect(records).toHaveLength(4);
    for (const record of records) expect(isSealed(record.body)).toBe(true);
  });

  it("keeps no reset, invitation or email-change link token in any table while the emails wait to be sent", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const invitee = `invitee-${randomUUID()}@example.com`;
    const newAddress = `moved-${randomUUID()}@example.com`;
    const reset = await t.anonymous.call(credentialRoutes.requestPasswordReset, { email: owner.email });
    expect(reset.statusCode, reset.body).toBe(204);
    await issueQueuedResets();
    const invited = await t
      .as(owner)
      .call(invitationRoutes.invite, { id: account.id, invitee_email: invitee });
    expect(invited.statusCode, invited.body).toBe(201);
    const change = await t.as(owner).call(credentialRoutes.changeEmail, { new_email: newAddress });
    expect(change.statusCode, change.body).toBeLessThan(300);

    // The sender has not run (mail down, or not yet its turn): the messages wait in the outbox.
    const queued = await t.db.select().from(emailOutbox);
    const waiting = queued.filter(
      (row) => row.sentAt === null && [owner.email, invitee, newAddress].includes(row.toAddress),
    );
    expect(waiting.map((row) => row.kind).sort()).toEqual([
      "email_change_confirm",
      "email_change_revoke",
      "invitation",
      "password_reset",
    ]);
    for (const row of waiting) expect(isSealed(row.textBody) && isSealed(row.htmlBody)).toBe(true);
    const dump = await databaseDump(t.db);
    expect(dump).toContain("Reset your Allot password");

    // The tokens as the recipients get them, once the sender runs.
    const toOwner = await mailbox.messagesTo(owner.email);
    const tokens = [
      tokenIn(
        toOwner.find((m) => m.kind === "password_reset"),
        "/links/password-reset/",
      ),
      tokenIn(await mailbox.latestTo(invitee), "/links/invitations/"),
      tokenIn(await mailbox.latestTo(newAddress), "/links/email-change/"),
      tokenIn(
        toOwner.find((m) => m.kind === "email_change_revoke"),
        "/links/email-change/",
      ),
    ];
    for (const token of tokens) expect(dump.includes(token), "a link token is in the dump").toBe(false);
  });

  it("seals at start-up the emails queued in clear by an earlier version, and still sends them", async () => {
    const owner = await t.user();
    await t.anonymous.call(credentialRoutes.requestPasswordReset, { email: owner.email });
    await issueQueuedResets();
    const [sealed] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, owner.email));
    if (!sealed) throw new Error("no reset email queued");
    // Back to what earlier versions stored: the bodies in clear.
    const clear = openedOutboxRow(sealed);
    await t.db
      .update(emailOutbox)
      .set({ textBody: clear.textBody, htmlBody: clear.htmlBody })
      .where(eq(emailOutbox.id, sealed.id));
    const token = /\/links\/password-reset\/([^\s"<]+)/.exec(clear.textBody ?? "")?.[1];
    if (!token) throw new Error("no reset link");
    expect(await databaseDump(t.db)).toContain(token);

    const report = await sealStoredSecrets(t.db, t.vault);
    expect(report.queuedEmails).toBeGreaterThanOrEqual(1);
    expect((await sealStoredSecrets(t.db, t.vault)).queuedEmails).toBe(0);
    expect(await databaseDump(t.db)).not.toContain(token);

    const delivered = await mailbox.latestTo(owner.email);
    expect(mailbox.linkIn(delivered, "/links/password-reset/")).toContain(token);
  });

  it("signs deliveries with the sealed secret, and with both across a rotation", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const hook = await kit.webhook(owner, { url: `${receiver.url}/rotation`, bank_account: account.id });
    await aBudget(t, owner, account, { name: "Before" });
    expect(await kit.deliver()).toEqual({ succeeded: 1, failed: 0 });
    const rotated = await t.as(owner).call(webhookRoutes.rotateSecret, { id: hook.id });
    await aBudget(t, owner, account, { name: "After" });
    expect(await kit.deliver()).toEqual({ succeeded: 1, failed: 0 });

    const [before, after] = receiver.received("/rotation");
    if (!before || !after) throw new Error("not received");
    const verify = (secret: string, request: typeof before) =>
      new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    expect(verify(hook.secret, before)).toMatchObject({ type: "budget.created" });
    expect(verify(rotated.json().secret, after)).toMatchObject({ type: "budget.created" });
    expect(verify(hook.secret, after)).toMatchObject({ type: "budget.created" });
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(() => verify(rotated.json().secret, before)).toThrow();
  });

  it("converts what was stored in clear at start-up: it still signs and replays, and no dump shows it", async () => {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const hook = await kit.webhook(owner, { url: `${receiver.url}/legacy`, bank_account: account.id });
    const rotated = (await t.as(owner).call(webhookRoutes.rotateSecret, { id: hook.id })).json();
    const key = randomUUID();
    const input = { name: "legacy import" };
    const created = await t
      .as(owner)
      .call(apiKeyRoutes.create, input, { headers: { "idempotency-key": key } });
    const apiKey: string = created.json().key;

    // Back to what earlier versions stored: the secrets in clear, the answer in clear, its SHA-256.
    const [row] = await t.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    if (!row?.previousSecret) throw new Error("no rotated webhook");
    await t.db
      .update(webhooks)
      .set({ secret: rotated.secret, previousSecret: hook.secret })
      .where(eq(webhooks.id, hook.id));
    const legacyDigest = requestDigest("POST", API_KEYS_PATH, apiKeyRoutes.create.input.parse(input));
    const ofKey = and(eq(idempotencyKeys.userId, owner.id), eq(idempotencyKeys.key, key));
    const [record] = await t.db.select().from(idempotencyKeys).where(ofKey);
    expect(record?.fingerprint).toBe(t.vault.fingerprint(legacyDigest));
    await t.db.update(idempotencyKeys).set({ fingerprint: legacyDigest, body: created.body }).where(ofKey);
    expect(await databaseDump(t.db)).toContain(apiKey);
    // Not yet converted (another instance of the earlier version wrote it): still replayed.
    const early = await t.as(owner).call(apiKeyRoutes.create, input, { headers: { "idempotency-key": key } });
    expect(early.json().key).toBe(apiKey);

    const report = await sealStoredSecrets(t.db, t.vault);
    expect(report.webhooks).toBeGreaterThanOrEqual(1);
    expect(report.idempotencyRecords).toBeGreaterThanOrEqual(1);
    expect(report.unreadableWebhooks).toBe(0);
    // Converted once: a second start (or a second process) changes nothing.
    expect(await sealStoredSecrets(t.db, t.vault)).toEqual({
      webhooks: 0,
      idempotencyRecords: 0,
      queuedEmails: 0,
      unreadableWebhooks: 0,
    });
    const dump = await databaseDump(t.db);
    for (const secret of [apiKey, ...secretForms(hook.secret), ...secretForms(rotated.secret), legacyDigest])
      expect(dump.includes(secret), "a converted secret is in the dump").toBe(false);

    const replay = await t
      .as(owner)
      .call(apiKeyRoutes.create, input, { headers: { "idempotency-key": key } });
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json().key).toBe(apiKey);
    await aBudget(t, owner, account, { name: "Converted" });
    expect(await kit.deliver()).toEqual({ succeeded: 1, failed: 0 });
    const [delivered] = receiver.received("/legacy");
    if (!delivered) throw new Error("not received");
    const headers = delivered.headers as Record<string, string>;
    expect(new Webhook(rotated.secret).verify(delivered.body, headers)).toMatchObject({
      type: "budget.created",
    });
    expect(new Webhook(hook.secret).verify(delivered.body, headers)).toMatchObject({
      type: "budget.created",
    });

    // A new SECRETS_KEY, the old one as SECRETS_KEY_PREVIOUS: a start re-seals with the new key.
    const next = { key: "the-next-secrets-key-of-32-characters-or-more", previousKey: TEST_SECRETS_KEYS.key };
    const rekeyed = secretVault(next);
    expect((await sealStoredSecrets(t.db, rekeyed)).webhooks).toBeGreaterThanOrEqual(1);
    const [resealed] = await t.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(rekeyed.sealedWithCurrentKey(resealed?.secret ?? null)).toBe(true);
    expect(rekeyed.sealedWithCurrentKey(resealed?.previousSecret ?? null)).toBe(true);
    await aBudget(t, owner, account, { name: "Rekeyed" });
    const sent = await deliverDueWebhooks(internalContext(t.db, "scheduler"), {
      poster: kit.poster,
      vault: rekeyed,
    });
    expect(sent).toEqual({ succeeded: 1, failed: 0 });
    const last = receiver.received("/legacy").at(-1);
    if (!last) throw new Error("not received");
    expect(
      new Webhook(rotated.secret).verify(last.body, last.headers as Record<string, string>),
    ).toMatchObject({ type: "budget.created" });
    // Without the replaced key, a start cannot open them, says so, and leaves them as they are.
    expect(
      (await sealStoredSecrets(t.db, secretVault({ key: next.previousKey, previousKey: null })))
        .unreadableWebhooks,
    ).toBeGreaterThanOrEqual(1);
    // Back to the app's key, for the file's other tests.
    await sealStoredSecrets(t.db, secretVault({ key: next.previousKey, previousKey: next.key }));
  });
});
