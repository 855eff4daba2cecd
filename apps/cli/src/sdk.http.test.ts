import { randomUUID } from "node:crypto";
import { useTestApp } from "@allot/api/src/testing/test-app";
import { listBanksRoute } from "@allot/contract/banks/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import { createUser } from "@allot/domain/users/create-user";
import { ApiError } from "@allot/sdk/api-error";
import { createClient } from "@allot/sdk/client";
import { beforeAll, describe, expect, it } from "vitest";

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
    await createUser(t.db, { email, password: PASSWORD, name: "Sam" });
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
    for (const name of names) await createBank(t.db, { name, currency: "USD" });

    const first = await client.banks.list({ page_size: 2, ordering: "name" });
    expect(first.results).toHaveLength(2);
    expect(first.next).toContain("page=2");

    const seen: string[] = [];
    for await (const bank of client.paginate(listBanksRoute, { page_size: 2, ordering: "name" }))
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

    const bank = await createBank(t.db, { name: "Accounts Bank", currency: "EUR" });
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
    await createUser(t.db, { email, password: PASSWORD });
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
