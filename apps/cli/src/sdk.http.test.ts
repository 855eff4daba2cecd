import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { testConfig, useTestApp } from "@allot/api/test/testing/test-app";
import { bankRoutes } from "@allot/contract/banks/routes";
import { WebhookPayloadSchema } from "@allot/contract/webhooks/webhook";
import { testEngines } from "@allot/db/testing/test-databases";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import { createBank } from "@allot/domain/banks/create-bank";
import { recordEvent } from "@allot/domain/events/record-event";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { exampleChange } from "@allot/domain/testing/event-examples";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import { createUser } from "@allot/domain/users/create-user";
import { deliverDueWebhooks } from "@allot/domain/webhooks/deliver-webhooks";
import type { WebhookRequest } from "@allot/domain/webhooks/webhook-poster";
import { ApiError, isValidationError } from "@allot/sdk/api-error";
import { createClient } from "@allot/sdk/client";
import type { Session } from "@allot/sdk/session-auth";
import { verifyWebhook, WebhookVerificationError } from "@allot/sdk/verify-webhook";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readmeSnippetFiles } from "../test/testing/readme-snippets";

/*
 * The SDK (packages/sdk) against the real API over real HTTP: buildApp on a test database,
 * listening on a free port. It lives here because the SDK must not depend on the API app, and the
 * CLI is the SDK's consumer (it may take @allot/api as a dev dependency).
 */

const PASSWORD = "correct horse battery staple";
let counter = 0;

describe.each(testEngines())("the SDK against the API (%s)", (engine) => {
  const t = useTestApp(engine);
  let baseUrl: string;

  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });

  /** A user made the admin way, and a client logged in as them. */
  async function loggedIn() {
    counter += 1;
    const email = `sdk${counter}-${Date.now()}@example.com`;
    await createUser(internalContext(t.db, "cli"), { email, password: PASSWORD, name: "Sam" });
    const session = await createClient({ baseUrl }).auth.login({ email, password: PASSWORD });
    return { email, session, client: createClient({ baseUrl, auth: { bearer: session.access } }) };
  }

  it("logs in, hands over the refresh cookie's value, and reads the user back", async () => {
    const { email, session, client } = await loggedIn();
    expect(session.access.split(".")).toHaveLength(3);
    expect(session.refreshToken).toEqual(expect.any(String));
    const me = await client.users.getMe();
    expect(me).toMatchObject({
      username: email.toLowerCase(),
      email,
      name: "Sam",
      has_usable_password: true,
    });
  });

  it("refreshes with the refresh token (rotated) and logs out, after which it is refused", async () => {
    const { session } = await loggedIn();
    const anonymous = createClient({ baseUrl });
    const refreshed = await anonymous.auth.refresh({ refreshToken: session.refreshToken as string });
    expect(refreshed.refreshToken).not.toBe(session.refreshToken);
    expect(await createClient({ baseUrl, auth: { bearer: refreshed.access } }).users.getMe()).toBeTruthy();

    await anonymous.auth.logout({ refreshToken: refreshed.refreshToken });
    await expect(
      anonymous.auth.refresh({ refreshToken: refreshed.refreshToken as string }),
    ).rejects.toMatchObject({
      status: 401,
    });
    await expect(
      createClient({ baseUrl, auth: { bearer: refreshed.access } }).users.getMe(),
    ).rejects.toMatchObject({ status: 401 });
  });

  it("walks every page of a list, following next", async () => {
    const { client } = await loggedIn();
    const names = ["Pg Echo", "Pg Alpha", "Pg Delta", "Pg Bravo", "Pg Charlie"];
    for (const name of names) await createBank(internalContext(t.db, "cli"), { name, currency: "USD" });

    const first = await client.banks.list({ page_size: 2, ordering: "name" });
    expect(first.results).toHaveLength(2);
    expect(first.next).toContain("page=2");

    const seen: string[] = [];
    for await (const bank of client.paginate(bankRoutes.list, { page_size: 2, ordering: "name" }))
      seen.push(bank.name);
    expect(seen).toHaveLength(first.count);
    expect(seen.filter((name) => name.startsWith("Pg "))).toEqual([...names].sort());
    expect(seen).toEqual([...seen].sort());
  });

  it("covers the other areas through generated resources: API keys and bank accounts", async () => {
    const { client } = await loggedIn();
    const created = await client.apiKeys.create({ name: "importer" });
    expect(created.key).toMatch(/^allot_/);
    const byKey = createClient({ baseUrl, auth: { apiKey: created.key } });
    expect((await byKey.users.getMe()).name).toBe("Sam");

    const bank = await createBank(internalContext(t.db, "cli"), { name: "Accounts Bank", currency: "EUR" });
    const account = await byKey.bankAccounts.create({
      name: "Checking",
      bank: bank.id,
      posted_balance: "12.50",
    });
    expect(account).toMatchObject({ name: "Checking", currency: "EUR", posted_balance: "12.50" });
    const renamed = await byKey.bankAccounts.update({ id: account.id, name: "Bills" });
    expect(renamed.name).toBe("Bills");
    expect((await byKey.bankAccounts.list()).results.map((a) => a.id)).toEqual([account.id]);
    // Deleting an account needs a password login (403 to API keys); the 204 comes back as undefined.
    await expect(byKey.bankAccounts.delete({ id: account.id })).rejects.toMatchObject({ status: 403 });
    expect(await client.bankAccounts.delete({ id: account.id })).toBeUndefined();

    const revoked = await client.apiKeys.revoke({ uuid: created.uuid });
    expect(revoked.revoked_at).not.toBeNull();
  });

  it("throws ApiError: the field map of a 400, not_found for a 404, 401 without or with bad credentials", async () => {
    const { client } = await loggedIn();

    // @ts-expect-error: "colour" is no ordering of banks: the types refuse it, and so does the server.
    const invalid = await client.banks.list({ ordering: "colour" }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid).toMatchObject({
      status: 400,
      code: "invalid",
      fields: { ordering: [expect.any(String)] },
    });
    expect((invalid as ApiError).detail).toMatch(/^ordering: /);

    const missing = await client.banks.get({ id: randomUUID() }).catch((e: unknown) => e);
    expect(missing).toMatchObject({
      status: 404,
      code: "not_found",
      detail: expect.any(String),
      fields: null,
    });

    await expect(createClient({ baseUrl }).users.getMe()).rejects.toMatchObject({
      status: 401,
      code: "not_authenticated",
    });
    await expect(
      createClient({ baseUrl }).auth.login({ email: "nobody@example.com", password: "wrong" }),
    ).rejects.toMatchObject({ status: 401 });
    await expect(
      createClient({ baseUrl, auth: { bearer: "not.a.jwt" } }).users.getMe(),
    ).rejects.toMatchObject({
      status: 401,
      code: "token_not_valid",
    });
  });

  /** Reads a JWT's claims (unverified): the test signs tokens for the same session. */
  const claims = (token: string) =>
    JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());

  it("refreshes a login session on its own: an expired token before sending, a refused one after a 401", async () => {
    const { session } = await loggedIn();
    const { sub, sid } = claims(session.access);
    const tokens = createAccessTokens(testConfig().jwtSecret);
    const expired = await tokens.sign(
      { userId: Number(sub), sessionId: sid },
      new Date(Date.now() - 2 * 3600_000),
    );
    const sessions: Session[] = [];
    const client = createClient({
      baseUrl,
      auth: { access: expired, refreshToken: session.refreshToken as string },
      onSession: (next) => void sessions.push(next),
    });
    expect((await client.users.getMe()).name).toBe("Sam");
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.refreshToken).not.toBe(session.refreshToken);
    expect(client.session).toEqual(sessions[0]);

    // A token the server refuses though it looks alive (signed with another secret): 401, refresh, resend.
    const forged = await createAccessTokens("another-secret-another-secret-0123456789").sign({
      userId: Number(sub),
      sessionId: sid,
    });
    const resumed = createClient({
      baseUrl,
      auth: { access: forged, refreshToken: sessions[0]?.refreshToken as string },
    });
    expect((await resumed.users.getMe()).name).toBe("Sam");
    expect(resumed.session?.refreshToken).not.toBe(sessions[0]?.refreshToken);
    // The rotated-away token is spent: the server refuses it, so the client's refresh was real.
    await expect(
      createClient({ baseUrl }).auth.refresh({ refreshToken: session.refreshToken as string }),
    ).rejects.toMatchObject({
      status: 401,
    });
  });

  it("shares one refresh among concurrent calls (a second would reuse a rotated-away token and fail)", async () => {
    const { session } = await loggedIn();
    const client = createClient({
      baseUrl,
      auth: { access: "not.a.jwt", refreshToken: session.refreshToken as string },
    });
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => client.users.getMe()));
    expect(results.map((me) => me.name)).toEqual(["Sam", "Sam", "Sam", "Sam", "Sam"]);
  });

  it("logs in on the client itself, then for-awaits every page of a list through its method", async () => {
    const { email } = await loggedIn();
    const client = createClient({ baseUrl });
    await client.auth.login({ email, password: PASSWORD });
    for (const name of ["Iter A", "Iter B", "Iter C"])
      await createBank(internalContext(t.db, "cli"), { name, currency: "USD" });
    const names: string[] = [];
    for await (const bank of client.paginate(client.banks.list, { page_size: 1, ordering: "name" }))
      names.push(bank.name);
    expect(names.filter((name) => name.startsWith("Iter "))).toEqual(["Iter A", "Iter B", "Iter C"]);
    expect(names.length).toBe((await client.banks.list()).count);
  });

  it("creates a transaction and narrows a validation error to its field map", async () => {
    const { client } = await loggedIn();
    const bank = await createBank(internalContext(t.db, "cli"), { name: "Tx Bank", currency: "USD" });
    const account = await client.bankAccounts.create({
      name: "Spending",
      bank: bank.id,
      posted_balance: "100.00",
    });
    const created = await client.transactions.create({
      bank_account: account.id,
      amount: "-12.50",
      transaction_date: "2026-03-01T12:00:00Z",
      transaction_type: "fee",
      raw_description: "COFFEE 123",
    });
    expect(created).toMatchObject({ amount: "-12.50", raw_description: "COFFEE 123" });
    expect((await client.transactions.get({ id: created.id })).id).toBe(created.id);

    const error = await client.transactions
      .create({
        bank_account: account.id,
        amount: "lots",
        transaction_date: "2026-03-01T12:00:00Z",
        transaction_type: "fee",
        raw_description: "X",
      })
      .catch((e: unknown) => e);
    expect(isValidationError(error)).toBe(true);
    if (isValidationError(error)) expect(Object.keys(error.fields)).toEqual(["amount"]);
  });

  it("reaches the newer areas: invitations, preferences, funding, credentials", async () => {
    const { client } = await loggedIn();
    const bank = await createBank(internalContext(t.db, "cli"), { name: "Newer Bank", currency: "USD" });
    const account = await client.bankAccounts.create({
      name: "Shared",
      bank: bank.id,
      posted_balance: "0.00",
    });
    await client.invitations.invite({ id: account.id, invitee_email: `friend-${Date.now()}@example.com` });
    const invitations = await client.invitations.listForAccount({ id: account.id });
    expect(invitations).toHaveLength(1);
    expect(await client.invitations.listMine()).toEqual(expect.any(Array));
    const channels = await client.preferences.listChannels();
    expect(channels.length).toBeGreaterThan(0);
    expect(channels[0]).toMatchObject({ channel: expect.any(String), digest_frequency: expect.any(String) });
    expect(await client.funding.summary({ id: account.id })).toBeTruthy();
    const wrong = await client.credentials
      .changePassword({ current_password: "wrong", new_password: "x", confirm_password: "y" })
      .catch((e: unknown) => e);
    expect(isValidationError(wrong) && Object.keys(wrong.fields).length).toBeGreaterThan(0);
  });

  it("reads an account's activity trail: one page, a repeated type filter, every page through paginate", async () => {
    const { client } = await loggedIn();
    const bank = await createBank(internalContext(t.db, "cli"), { name: "Trail Bank", currency: "USD" });
    const account = await client.bankAccounts.create({
      name: "Trail",
      bank: bank.id,
      posted_balance: "0.00",
    });
    // Written by the activity trail's one writer, as a scheduled funding run would: three of one
    // type, one of another, one the filter leaves out.
    const scheduler = internalContext(t.db, "scheduler");
    const write = (type: "funding.completed" | "funding.underfunded" | "budget.deleted", says: string) =>
      t.db.transaction((tx) => recordEvent(tx, scheduler, exampleChange(account.id, type, says)));
    for (const says of ["funded 1 budget", "funded 2 budgets", "funded 3 budgets"])
      await write("funding.completed", says);
    await write("funding.underfunded", "left 1 budget underfunded");
    await write("budget.deleted", "deleted a budget");

    const type = ["funding.completed", "funding.underfunded"] as const;
    const first = await client.activity.list({ id: account.id, type: [...type], page_size: 2 });
    expect(first.count).toBe(4);
    expect(first.results.map((event) => event.summary)).toEqual([
      "The scheduler left 1 budget underfunded",
      "The scheduler funded 3 budgets",
    ]);
    expect(first.results[0]?.actor).toEqual({ kind: "scheduler", username: null, api_key: null });
    expect(first.next).toContain("page=2");

    // Every page: the repeated filter travels with each next link.
    const summaries: string[] = [];
    for await (const event of client.paginate(client.activity.list, {
      id: account.id,
      type: [...type],
      page_size: 2,
    }))
      summaries.push(event.summary);
    expect(summaries).toEqual([
      "The scheduler left 1 budget underfunded",
      "The scheduler funded 3 budgets",
      "The scheduler funded 2 budgets",
      "The scheduler funded 1 budget",
    ]);

    const unknown = await client.activity
      .list({ id: account.id, type: ["budget.exploded" as "budget.deleted"] })
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 400, fields: { type: [expect.any(String)] } });
    await expect(client.activity.list({ id: randomUUID() })).rejects.toMatchObject({ status: 404 });
  });
});

describe.each(testEngines())("the SDK's webhooks against the API (%s)", (engine) => {
  const t = useTestApp(engine);
  let baseUrl: string;

  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });

  /** One pass of the sender, its requests caught instead of sent, each answered 204. */
  async function sendDue(): Promise<WebhookRequest[]> {
    const sent: WebhookRequest[] = [];
    const poster = {
      post: async (request: WebhookRequest) => {
        sent.push(request);
        return { status: 204, timeMs: 3, error: null };
      },
    };
    await deliverDueWebhooks(
      { ...internalContext(t.db, "scheduler"), now: new Date() },
      { poster, vault: t.vault },
    );
    return sent;
  }

  it("creates webhooks, pages through them, rotates a secret, tests, and lists and redelivers deliveries", async () => {
    counter += 1;
    const email = `hooks${counter}-${Date.now()}@example.com`;
    await createUser(internalContext(t.db, "cli"), { email, password: PASSWORD });
    const client = createClient({ baseUrl });
    await client.auth.login({ email, password: PASSWORD });

    // Test receivers are on loopback over http: the test app's policy allows both.
    const urls = ["a", "b", "c"].map((name) => `http://127.0.0.1:9/sdk/${name}`);
    const created = [];
    for (const url of urls) created.push(await client.webhooks.create({ url, event_types: ["*"] }));
    const [webhook, other] = created;
    if (!webhook || !other) throw new Error("no webhooks");
    expect(webhook).toMatchObject({ url: urls[0], bank_account: null, enabled: true });
    expect(webhook.secret).toMatch(/^whsec_/);

    const listed: string[] = [];
    for await (const each of client.paginate(client.webhooks.list, { page_size: 2 })) listed.push(each.url);
    expect(listed).toEqual([...urls].reverse());
    expect(await client.webhooks.get({ id: webhook.id })).not.toHaveProperty("secret");

    const rotated = await client.webhooks.rotateSecret({ id: webhook.id });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(webhook.secret);

    const test = await client.webhooks.test({ id: webhook.id });
    expect(test).toMatchObject({ event_type: "webhook.test", status: "pending", attempts: 0 });

    // What the sender signs, verifyWebhook accepts: with the new secret, and with the old one for
    // the 24 hours it keeps signing beside it; with another webhook's secret it refuses.
    const request = (await sendDue()).find((each) => each.url === webhook.url);
    if (!request) throw new Error("the test event was not sent");
    for (const secret of [rotated.secret, webhook.secret]) {
      const payload = verifyWebhook(secret, request.headers, request.body);
      expect(payload).toMatchObject({
        type: "webhook.test",
        data: { id: test.event_id, type: "webhook.test", data: { webhook: webhook.id } },
      });
      expect(WebhookPayloadSchema.parse(payload)).toEqual(payload);
    }
    const refused = (() => {
      try {
        verifyWebhook(other.secret, request.headers, request.body);
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(WebhookVerificationError);
    expect(refused).toMatchObject({ reason: "no_matching_signature" });

    const again = await client.webhooks.redeliver({ id: webhook.id, delivery_id: test.id });
    expect(again).toMatchObject({ event_id: test.event_id, status: "pending" });

    // Every page of the deliveries, newest first; then the filters.
    const deliveries: [string, string, number | null][] = [];
    for await (const delivery of client.paginate(client.webhooks.listDeliveries, {
      id: webhook.id,
      page_size: 1,
    }))
      deliveries.push([delivery.id, delivery.status, delivery.response_status]);
    expect(deliveries).toEqual([
      [again.id, "pending", null],
      [test.id, "succeeded", 204],
    ]);
    const succeeded = await client.webhooks.listDeliveries({
      id: webhook.id,
      status: ["succeeded", "failed"],
      event_type: "webhook.test",
    });
    expect(succeeded.results.map((delivery) => delivery.id)).toEqual([test.id]);

    expect(await client.webhooks.update({ id: webhook.id, enabled: false })).toMatchObject({
      enabled: false,
    });
    expect(await client.webhooks.delete({ id: webhook.id })).toBeUndefined();
    await expect(client.webhooks.get({ id: webhook.id })).rejects.toMatchObject({ status: 404 });
  });
});

describe.each(testEngines())("the SDK when the API throttles (%s)", (engine) => {
  const generous = parseThrottleRates("100000/minute");
  const t = useTestApp(engine, {
    throttle: {
      user: parseThrottleRates("2/second"),
      anon: generous,
      loginPerIp: generous,
      loginPerEmail: generous,
      refreshPerIp: generous,
    },
  });
  let baseUrl: string;
  let access: string;

  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const email = `throttled-${Date.now()}@example.com`;
    await createUser(internalContext(t.db, "cli"), { email, password: PASSWORD });
    access = (await createClient({ baseUrl }).auth.login({ email, password: PASSWORD })).access;
  });

  it("waits out Retry-After and retries, so every call succeeds", async () => {
    // Five calls in well under two seconds: at least three land in one one-second window.
    const withoutRetries = createClient({ baseUrl, auth: { bearer: access }, retries: 0 });
    const outcomes = await Promise.allSettled([1, 2, 3, 4, 5].map(() => withoutRetries.users.getMe()));
    const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason] : []));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]).toMatchObject({ status: 429, code: "throttled", retryAfter: expect.any(Number) });
    expect(refused[0].retryAfter).toBeGreaterThanOrEqual(1);

    const withRetries = createClient({ baseUrl, auth: { bearer: access }, retries: 5 });
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => withRetries.users.getMe()));
    expect(results.every((me) => me.email.startsWith("throttled-"))).toBe(true);
  });
});

/*
 * The built SDK from another project: build packages/sdk/dist, then a throwaway project that
 * depends on the package folder (as `npm install <folder>` links it), typechecks a script with
 * tsc against the emitted .d.ts, and runs the compiled script with plain node against the API.
 */
const run = promisify(execFile);
const sdkRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../packages/sdk");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

const CONSUMER = `import { createHmac } from "node:crypto";
import { existsSync } from "node:fs";
import {
  type ChangesPage,
  createClient,
  fileWriteJournal,
  isApiError,
  isValidationError,
  type Session,
  verifyWebhook,
  type WebhookPayload,
  WebhookVerificationError,
} from "@allot/sdk";

const [baseUrl = "", email = "", password = "", journal = ""] = process.argv.slice(2);
const sessions: Session[] = [];
const client = createClient({
  baseUrl,
  onSession: (session) => void sessions.push(session),
  writeJournal: fileWriteJournal(journal),
});
await client.auth.login({ email, password });
const me = await client.users.getMe();
// @ts-expect-error: outputs are typed from the contract, so an unknown field does not compile.
void me.no_such_field;

const banks: { id: string; name: string }[] = [];
for await (const bank of client.paginate(client.banks.list, { page_size: 1, ordering: "name" })) banks.push(bank);

// A new account's change feed, a change a page: the account and its Unallocated budget.
const account = await client.bankAccounts.create({ name: "Replica", bank: banks[0]?.id ?? "", posted_balance: "0.00" });
const pages: ChangesPage[] = [];
for await (const page of client.changes.iterate(account.id, { pageSize: 1 })) pages.push(page);
const changes = pages.map((page) => page.changes.map((change) => change.type).join());

let fields: string[] = [];
try {
  await client.bankAccounts.create({ name: "Checking", bank: "00000000-0000-0000-0000-000000000000", posted_balance: "abc" });
} catch (error) {
  if (isValidationError(error)) fields = Object.keys(error.fields);
  else if (!isApiError(error)) throw error;
}
// A delivery signed by hand as extensions.md §4 says, checked by the SDK's standardwebhooks.
const key = Buffer.alloc(32, 7);
const body = JSON.stringify({ type: "webhook.test", timestamp: new Date().toISOString(), data: {} });
const timestamp = String(Math.floor(Date.now() / 1000));
const signature = createHmac("sha256", key).update(\`msg_1.\${timestamp}.\${body}\`).digest("base64");
const headers = { "webhook-id": "msg_1", "webhook-timestamp": timestamp, "webhook-signature": \`v1,\${signature}\` };
const secret = \`whsec_\${key.toString("base64")}\`;
const payload: WebhookPayload = verifyWebhook(secret, headers, body);
let refused = "";
try {
  verifyWebhook(secret, headers, \`\${body} \`);
} catch (error) {
  if (error instanceof WebhookVerificationError) refused = error.reason;
}
console.log(
  JSON.stringify({
    email: me.email,
    banks: banks.map((bank) => bank.name),
    changes,
    fields,
    sessions: sessions.length,
    verified: payload.type,
    refused,
    // Every write was answered (a 201, a 400): none is left to resume.
    journalLeft: existsSync(journal),
  }),
);
`;

/** What the SDK's types must refuse (tsc fails on an @ts-expect-error with no error below it). */
const TYPES_REFUSED = `import { type Budget, createClient, type Transaction, type WebhookPayload } from "@allot/sdk";
declare const client: ReturnType<typeof createClient>;
declare const delivered: WebhookPayload;
// @ts-expect-error: narrowed to a transfer, a delivery's data names src_budget and dst_budget, no budget
if (delivered.type === "transfer.created") void delivered.data.data.budget;
if (delivered.type === "transfer.created") void delivered.data.data.dst_budget.toUpperCase();
for await (const event of client.paginate(client.activity.list, { id: "x" }))
  // @ts-expect-error: an activity event's data is typed by its type too
  if (event.type === "budget.created") void event.data.amount;
const purchase = { bank_account: "x", transaction_date: "2026-03-01", transaction_type: "pin_purchase", raw_description: "x" } as const;
// @ts-expect-error: money is a decimal string, never a float
await client.transactions.create({ ...purchase, amount: 12.5 });
await client.transactions.create({ ...purchase, amount: "12.50" });
// @ts-expect-error: not an ordering of budgets
await client.budgets.list({ ordering: "nme" });
await client.budgets.list({ ordering: "-name", page: 2, page_size: 50 });
// @ts-expect-error: a page is a number
await client.budgets.list({ page: "2" });

// Every write is typed from the contract's input schema (issue 32): a wrong type does not compile.
const id = "4a8c2e6f-1b3d-4f5a-9c7e-2d4f6a8b0c1e";
const sale = { ...purchase, amount: "12.50" } as const;
// @ts-expect-error: the issue's example: a memo is text, a category an id, a city one text
await client.transactions.create({ ...sale, memo: 123, category: { nope: true }, merchant_city: ["a"] });
// @ts-expect-error: a memo is text
await client.transactions.create({ ...sale, memo: 123 });
// @ts-expect-error: a category is an id
await client.transactions.create({ ...sale, category: { nope: true } });
// @ts-expect-error: a city is one text
await client.transactions.create({ ...sale, merchant_city: ["a"] });
// @ts-expect-error: a coordinate is decimal text, like money
await client.transactions.create({ ...sale, merchant_latitude: 39.78 });
// @ts-expect-error: a receipt is a file, not a URL
await client.transactions.create({ ...sale, image: "https://example.com/receipt.png" });
await client.transactions.create({
  ...sale,
  memo: null,
  category: id,
  merchant_city: "Springfield",
  merchant_latitude: "39.781721",
  image: new Blob([new Uint8Array([1])]),
  document: { path: "receipt.pdf" },
});
// @ts-expect-error: PATCH: a memo is text
await client.transactions.update({ id, memo: 123 });
// @ts-expect-error: PUT: a bank transaction id is text
await client.transactions.replace({ id, transaction_type: "ach", bank_transaction_id: 381 });
await client.transactions.update({ id, memo: "Birthday dinner", category: null, image: null });
// @ts-expect-error: the final amount is a decimal string
await client.transactions.resolvePending({ id, posted_date: "2026-05-03", amount: -61.7 });
await client.transactions.resolvePending({ id, posted_date: "2026-05-03", amount: "-61.70" });
// @ts-expect-error: splits map a budget to a decimal string
await client.transactions.split({ id, splits: { [id]: 40 } });
// @ts-expect-error: splits are a map, not a list
await client.transactions.split({ id, splits: [id, "40.00"] });
await client.transactions.split({ id, splits: { [id]: "40.00" } });
// @ts-expect-error: a list filter is a boolean
await client.transactions.list({ pending: "yes" });
// @ts-expect-error: an unknown filter
await client.transactions.list({ no_such_filter: "x" });
// @ts-expect-error: a budget's funding amount is a decimal string
await client.budgets.create({ bank_account: id, budget_type: "G", name: "Trip", funding_type: "D", target_balance: "900.00", funding_amount: 25 });
// @ts-expect-error: auto_spend lists category names
await client.budgets.update({ id, auto_spend: "Food : Groceries" });
// @ts-expect-error: a target date is a YYYY-MM-DD text
await client.budgets.update({ id, target_date: new Date() });
await client.budgets.update({ id, funding_amount: "25.00", target_date: null, auto_spend: ["Food : Groceries"] });
// @ts-expect-error: an account's balance is a decimal string
await client.bankAccounts.create({ name: "Checking", bank: id, posted_balance: 0 });
// @ts-expect-error: a category's name is text
await client.transactionCategories.create({ group: "Food", name: 7 });
// @ts-expect-error: PATCH: a group is text
await client.transactionCategories.update({ id, group: ["Food"] });
await client.transactionCategories.create({ group: "Food", name: "Groceries" });
// @ts-expect-error: the default account is an id or null
await client.users.updateMe({ default_bank_account: 7 });
// @ts-expect-error: a time zone is text
await client.users.updateMe({ timezone: 1 });
await client.users.updateMe({ default_bank_account: null, timezone: "Europe/Paris" });
// @ts-expect-error: expiry is a number of days
await client.apiKeys.create({ name: "ci", expiry_days: "30" });
// @ts-expect-error: event types are a list
await client.webhooks.create({ url: "https://hooks.example.com/allot", event_types: "*" });
// @ts-expect-error: enabled is a boolean
await client.webhooks.update({ id, enabled: "yes" });
// @ts-expect-error: an invitee is one email
await client.invitations.invite({ id, invitee_email: ["a@example.com"] });
// @ts-expect-error: a scraped amount is a decimal string
await client.imports.syncScrape({ id, scraped_at: "2026-05-03T00:00:00Z", ending_balance: "0.00", transactions: [{ is_pending: false, posted_date: "2026-05-03", raw_description: "x", amount: -5 }] });
// @ts-expect-error: overwrite is a boolean
await client.imports.transactionDetails({ id, details: [], overwrite: "yes" });
// @ts-expect-error: a transfer's amount is a decimal string
await client.internalTransactions.create({ bank_account: id, amount: 5, src_budget: id, dst_budget: id });
// @ts-expect-error: a digest frequency from the list
await client.preferences.updateChannel({ channel: "email", digest_frequency: "hourly" });
// @ts-expect-error: an email is text
await client.credentials.changeEmail({ new_email: 5 });
// @ts-expect-error: as_of is a date text
await client.funding.run({ id, as_of: new Date() });
const transaction: Transaction = await client.transactions.get({ id: "x" });
const amount: string = transaction.amount;
const budgets: Budget[] = (await client.budgets.list()).results;
export { amount, budgets };
`;

let consumer: Promise<string> | undefined;
/** Builds the SDK and compiles the consumer project once per file: its folder. */
function buildConsumer(): Promise<string> {
  consumer ??= (async () => {
    await run(process.execPath, [join(sdkRoot, "scripts/build.mjs")]);
    const folder = await mkdtemp(join(tmpdir(), "allot-sdk-consumer-"));
    // The package as another project gets it: packed, unpacked into its node_modules (its own
    // dependencies found through the workspace's, as an install would put them beside it).
    await run("pnpm", ["pack", "--pack-destination", folder], { cwd: sdkRoot });
    const [tarball] = (await readdir(folder)).filter((name) => name.endsWith(".tgz"));
    const installed = join(folder, "node_modules/@allot/sdk");
    await mkdir(installed, { recursive: true });
    await mkdir(join(folder, "node_modules/@types"), { recursive: true });
    await run("tar", ["xzf", join(folder, tarball as string), "-C", installed, "--strip-components=1"]);
    await symlink(join(sdkRoot, "node_modules"), join(installed, "node_modules"), "dir");
    const snippets = readmeSnippetFiles(await readFile(join(sdkRoot, "README.md"), "utf8"));
    for (const snippet of snippets) await writeFile(join(folder, snippet.name), snippet.source);
    await writeFile(join(folder, "types-refused.ts"), TYPES_REFUSED);
    await symlink(
      dirname(createRequire(import.meta.url).resolve("@types/node/package.json")),
      join(folder, "node_modules/@types/node"),
      "dir",
    );
    await writeFile(
      join(folder, "package.json"),
      JSON.stringify({ type: "module", dependencies: { "@allot/sdk": "file:sdk" } }),
    );
    await writeFile(
      join(folder, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: "nodenext",
          target: "es2022",
          outDir: "out",
          types: ["node"],
          skipLibCheck: true,
        },
        include: ["main.ts", "readme-*.ts", "types-refused.ts"],
      }),
    );
    await writeFile(join(folder, "main.ts"), CONSUMER);
    await run(process.execPath, [tsc, "-p", folder]).catch((error: { stdout?: string }) => {
      throw new Error(`the consumer or a README example does not typecheck:\n${error.stdout}`);
    });
    return folder;
  })();
  return consumer;
}

// At file level: both engines' blocks share the one consumer project.
afterAll(async () => {
  const folder = await consumer?.catch(() => undefined);
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe.each(testEngines())("the built SDK used from another project (%s)", (engine) => {
  const t = useTestApp(engine);

  it("builds JavaScript that imports no TypeScript source, with declarations beside it", async () => {
    const folder = await buildConsumer();
    const files = (await readdir(join(sdkRoot, "dist"), { recursive: true })).map(String);
    const scripts = files.filter((file) => file.endsWith(".js"));
    expect(scripts).toContain(join("sdk", "src", "index.js"));
    expect(files).toContain(join("sdk", "src", "index.d.ts"));
    for (const file of scripts) {
      const text = await readFile(join(sdkRoot, "dist", file), "utf8");
      expect(text, file).not.toMatch(/from "@allot\/|\.ts"/);
    }
    const manifest = JSON.parse(await readFile(join(folder, "node_modules/@allot/sdk/package.json"), "utf8"));
    // verifyWebhook loads standardwebhooks at runtime: the package must bring it along.
    const verifier = await readFile(join(sdkRoot, "dist", "sdk", "src", "verify-webhook.js"), "utf8");
    expect(verifier).toMatch(/from "standardwebhooks"/);
    expect(Object.keys(manifest.dependencies)).toEqual(
      expect.arrayContaining(["standardwebhooks", "undici"]),
    );
    // The packed manifest points only at built files (the workspace's `./*` source entry is gone).
    expect(manifest.exports).toEqual({
      ".": { types: "./dist/sdk/src/index.d.ts", default: "./dist/sdk/src/index.js" },
    });
    // Every ```ts example of the README typechecked under strict with the consumer.
    const examples = (await readdir(folder)).filter((name) => /^readme-\d+\.ts$/.test(name));
    expect(examples.length).toBeGreaterThanOrEqual(15);
  }, 300_000);

  it("typechecks a script with tsc and runs it with node against a real server", async () => {
    const folder = await buildConsumer();
    const baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const email = `consumer-${Date.now()}@example.com`;
    await createUser(internalContext(t.db, "cli"), { email, password: PASSWORD });
    for (const name of ["Consumer A", "Consumer B"])
      await createBank(internalContext(t.db, "cli"), { name, currency: "USD" });
    const journal = join(folder, `journal-${engine}.json`);
    const { stdout } = await run(process.execPath, [
      join(folder, "out/main.js"),
      baseUrl,
      email,
      PASSWORD,
      journal,
    ]);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({
      email,
      fields: expect.arrayContaining(["posted_balance"]),
      changes: ["bank_account", "budget"],
      sessions: 1,
      verified: "webhook.test",
      refused: "no_matching_signature",
      journalLeft: false,
    });
    expect(result.banks).toEqual(expect.arrayContaining(["Consumer A", "Consumer B"]));
  }, 300_000);
});
