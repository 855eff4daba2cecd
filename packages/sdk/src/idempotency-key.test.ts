import { describe, expect, it } from "vitest";
import { json, type Scripted, useScriptedServer } from "../test/testing/scripted-server";
import { ApiError } from "./api-error";
import { createClient } from "./client";
import { idempotencyKeyOf } from "./idempotency-key";

/*
 * The Idempotency-Key on the wire, against a scripted server: which calls carry one, whose it is,
 * and that every attempt of one call sends the same — across a 429, a connection reset, a 409
 * "still in progress" and a session refresh — so the server can answer a resend from the first.
 */

const server = useScriptedServer();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const keys = () => server.seen.map((r) => r.headers["idempotency-key"]);
const reset: Scripted = { status: 0, destroy: true };
const inProgress = (retryAfter: string) =>
  json(
    409,
    { detail: "A request with this Idempotency-Key is in progress.", code: "idempotency_key_in_progress" },
    { "retry-after": retryAfter },
  );
const BUDGET = { id: "b1", name: "Rent" };
const createBudget = (client: ReturnType<typeof createClient>, options = {}) =>
  client.budgets.create({ account: "a1", name: "Rent" } as never, options);

describe("which calls carry a key", () => {
  it("sends a fresh UUID on every write call, and none on a GET", async () => {
    server.respond = (request) => (request.method === "GET" ? json(200, {}) : json(200, BUDGET));
    const client = createClient({ baseUrl: server.baseUrl, auth: { apiKey: "allot_k" } });
    await createBudget(client);
    await createBudget(client);
    await client.bankAccounts.update({ id: "a1", name: "Bills" });
    await client.bankAccounts.replace({ id: "a1", name: "Bills" } as never);
    await client.bankAccounts.delete({ id: "a1" });
    await client.users.getMe();

    expect(server.seen.map((r) => r.method)).toEqual(["POST", "POST", "PATCH", "PUT", "DELETE", "GET"]);
    const writes = keys().slice(0, 5);
    for (const key of writes) expect(key).toMatch(UUID);
    expect(new Set(writes).size).toBe(5);
    expect(server.seen[5]?.headers).not.toHaveProperty("idempotency-key");
  });

  it("sends the caller's key as given, from the option or from the headers in any case", async () => {
    server.respond = () => json(201, BUDGET);
    const client = createClient({ baseUrl: server.baseUrl });
    await createBudget(client, { idempotencyKey: "import-2026-03/row-17" });
    await createBudget(client, { headers: { "Idempotency-Key": "from-a-header" } });
    await createBudget(client, { idempotencyKey: "same", headers: { "IDEMPOTENCY-KEY": "same" } });
    expect(keys()).toEqual(["import-2026-03/row-17", "from-a-header", "same"]);
    expect(
      server.seen.map((r) => r.headers).map((h) => Object.keys(h).filter((n) => n === "idempotency-key")),
    ).toEqual([["idempotency-key"], ["idempotency-key"], ["idempotency-key"]]);
  });

  it("refuses an option and a header that name different keys, before sending anything", async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    const call = createBudget(client, { idempotencyKey: "one", headers: { "idempotency-key": "two" } });
    await expect(call).rejects.toThrow(TypeError);
    expect(server.seen).toHaveLength(0);
  });

  it("sends none to the token endpoints and other public routes, even when the caller passes one", async () => {
    const token = json(200, { access: "h.e.s" }, { "set-cookie": "refresh_token=rt-2; Path=/api/token/" });
    server.respond = (request) =>
      request.url.startsWith("/api/token/") && !request.url.includes("logout") ? token : { status: 204 };
    const client = createClient({ baseUrl: server.baseUrl });
    const passed = { idempotencyKey: "k1", headers: { "Idempotency-Key": "k1" } };
    await client.auth.login({ email: "ann@example.com", password: "pw" }, passed);
    await client.auth.refresh({}, passed);
    await client.auth.logout({}, passed);
    await client.credentials.requestPasswordReset({ email: "ann@example.com" }, passed);

    expect(server.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST /api/token/",
      "POST /api/token/refresh/",
      "POST /api/token/logout/",
      "POST /api/v1/password-reset/",
    ]);
    for (const request of server.seen) expect(request.headers).not.toHaveProperty("idempotency-key");
  });
});

describe("one key for every attempt of a call", () => {
  it("resends a throttled write with the key it first sent", async () => {
    server.script = [
      json(429, { detail: "Slow down.", code: "throttled" }, { "retry-after": "0" }),
      json(201, BUDGET),
    ];
    expect(await createBudget(createClient({ baseUrl: server.baseUrl }))).toEqual(BUDGET);
    expect(keys()).toHaveLength(2);
    expect(keys()[0]).toMatch(UUID);
    expect(keys()[1]).toBe(keys()[0]);
  });

  it.each([
    ["POST", (c: ReturnType<typeof createClient>) => createBudget(c)],
    ["PATCH", (c: ReturnType<typeof createClient>) => c.bankAccounts.update({ id: "a1", name: "Bills" })],
  ])("resends a %s whose socket was destroyed, with the same key and body", async (method, send) => {
    server.script = [reset, json(200, BUDGET, { "idempotent-replayed": "true" })];
    expect(await send(createClient({ baseUrl: server.baseUrl }))).toEqual(BUDGET);
    expect(server.seen.map((r) => r.method)).toEqual([method, method]);
    expect(keys()[0]).toMatch(UUID);
    expect(keys()[1]).toBe(keys()[0]);
    expect(server.seen[1]?.body).toBe(server.seen[0]?.body);
  });

  it("keeps the caller's key across a reset", async () => {
    server.script = [reset, json(201, BUDGET)];
    await createBudget(createClient({ baseUrl: server.baseUrl }), { idempotencyKey: "row-17" });
    expect(keys()).toEqual(["row-17", "row-17"]);
  });

  it("waits the Retry-After of a 409 in progress, then resends with the same key", async () => {
    server.script = [inProgress("1"), json(201, BUDGET, { "idempotent-replayed": "true" })];
    const started = Date.now();
    expect(await createBudget(createClient({ baseUrl: server.baseUrl }))).toEqual(BUDGET);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(keys()).toHaveLength(2);
    expect(keys()[1]).toBe(keys()[0]);
  });

  it("rides out a reset whose first attempt is still running: reset, 409 in progress, replay", async () => {
    server.script = [reset, inProgress("0"), json(201, BUDGET, { "idempotent-replayed": "true" })];
    expect(await createBudget(createClient({ baseUrl: server.baseUrl }))).toEqual(BUDGET);
    expect(keys()).toHaveLength(3);
    expect(new Set(keys()).size).toBe(1);
  });

  it("resends after a session refresh with the same key, and none to the refresh itself", async () => {
    server.respond = (request) => {
      if (request.url === "/api/token/refresh/")
        return json(200, { access: "h.fresh.s" }, { "set-cookie": "refresh_token=rt-2; Path=/api/token/" });
      return request.headers.authorization === "Bearer h.fresh.s"
        ? json(201, BUDGET)
        : json(401, { detail: "Token has expired.", code: "token_not_valid" });
    };
    const client = createClient({
      baseUrl: server.baseUrl,
      auth: { access: "h.revoked.s", refreshToken: "rt-1" },
      refreshMarginSeconds: 0,
    });
    expect(await createBudget(client)).toEqual(BUDGET);
    expect(server.seen.map((r) => r.url)).toEqual([
      "/api/v1/budgets/",
      "/api/token/refresh/",
      "/api/v1/budgets/",
    ]);
    expect(keys()[0]).toMatch(UUID);
    expect(keys()[1]).toBeUndefined();
    expect(keys()[2]).toBe(keys()[0]);
  });
});

describe("when the SDK gives up", () => {
  it("counts 409s in progress against the retry budget and throws the last with its key", async () => {
    server.script = [inProgress("0"), inProgress("0"), inProgress("0")];
    const error = await createBudget(createClient({ baseUrl: server.baseUrl, retries: 1 })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: "idempotency_key_in_progress", retryAfter: 0 });
    expect(server.seen).toHaveLength(2);
    expect((error as ApiError).idempotencyKey).toBe(keys()[0]);
    expect(idempotencyKeyOf(error)).toBe(keys()[0]);
  });

  it("throws a reused key and any other 409 at once", async () => {
    server.script = [
      json(422, { detail: "This key was used for another request.", code: "idempotency_key_reused" }),
      json(409, { detail: "Name taken.", code: "conflict" }, { "retry-after": "0" }),
    ];
    const client = createClient({ baseUrl: server.baseUrl });
    const reused = await createBudget(client, { idempotencyKey: "k1" }).catch((e: unknown) => e);
    expect(reused).toMatchObject({ status: 422, code: "idempotency_key_reused", idempotencyKey: "k1" });
    await expect(createBudget(client)).rejects.toMatchObject({ status: 409, code: "conflict" });
    expect(server.seen).toHaveLength(2);
  });

  it("leaves the key on the network error once resets use up the retries, to send it again later", async () => {
    server.script = [reset, reset];
    const client = createClient({ baseUrl: server.baseUrl, retries: 1 });
    const error = await createBudget(client).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "UND_ERR_SOCKET" });
    const key = idempotencyKeyOf(error);
    expect(key).toMatch(UUID);
    expect(keys()).toEqual([key, key]);

    server.script = [json(201, BUDGET, { "idempotent-replayed": "true" })];
    await createBudget(client, { idempotencyKey: key ?? "" });
    expect(keys()[2]).toBe(key);
  });

  it("leaves the key on the abort error of a call stopped while it waits to resend", async () => {
    server.script = [inProgress("30")];
    const abort = new AbortController();
    const call = createBudget(createClient({ baseUrl: server.baseUrl }), { signal: abort.signal });
    setTimeout(() => abort.abort(), 50);
    const error = await call.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(String(error)).toMatch(/abort/i);
    expect(idempotencyKeyOf(error)).toBe(keys()[0]);
    expect(keys()).toHaveLength(1);
  });

  it("has no key on the error of a GET", async () => {
    server.script = [json(404, { detail: "Not found.", code: "not_found" })];
    const error = await createClient({ baseUrl: server.baseUrl })
      .users.getMe()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, idempotencyKey: null });
    expect(idempotencyKeyOf(error)).toBeNull();
  });
});
