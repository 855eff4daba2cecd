import { bankRoutes } from "@allot/contract/banks/routes";
import { describe, expect, it } from "vitest";
import { json, useScriptedServer } from "../test/testing/scripted-server";
import { ApiError } from "./api-error";
import { createClient } from "./client";
import type { RetryNotice } from "./transport";

/*
 * The transport's edge cases against a scripted HTTP server (the real API cannot be told to send
 * an HTML 502 or a one-hour Retry-After). The SDK against the real API: apps/cli/src/sdk.http.test.ts.
 */

const server = useScriptedServer();
const throttled = (retryAfter: string) =>
  json(429, { detail: "Slow down.", code: "throttled" }, { "retry-after": retryAfter });
const ME = { username: "ann", email: "ann@example.com" };
const requests = () => server.seen.map((r) => `${r.method} ${r.url}`);

describe("requests", () => {
  it("sends the credential, the method and the JSON body the route calls for, below <baseUrl>/api", async () => {
    server.script = [json(200, ME), { status: 204 }];
    const client = createClient({ baseUrl: `${server.baseUrl}/prefix/`, auth: { apiKey: "allot_k" } });
    expect(await client.users.getMe()).toEqual(ME);
    expect(await client.bankAccounts.update({ id: "a1", name: "Checking" })).toBeUndefined();
    expect(requests()).toEqual(["GET /prefix/api/v1/users/me/", "PATCH /prefix/api/v1/bank-accounts/a1/"]);
    expect(server.seen[0]?.headers.authorization).toBe("Api-Key allot_k");
    expect(server.seen[0]?.headers["content-type"]).toBeUndefined();
    expect(server.seen[1]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(server.seen[1]?.body ?? "")).toEqual({ name: "Checking" });

    server.script = [json(200, ME)];
    await createClient({ baseUrl: server.baseUrl, auth: { bearer: "jwt" } }).users.getMe();
    expect(server.seen[2]?.headers.authorization).toBe("Bearer jwt");
  });

  it("turns a body that is not JSON into an ApiError that says what came back", async () => {
    server.script = [{ status: 502, headers: { "content-type": "text/html" }, body: "<h1>Bad gateway</h1>" }];
    const error = await createClient({ baseUrl: server.baseUrl })
      .users.getMe()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 502,
      code: "unexpected_response",
      detail: "<h1>Bad gateway</h1>",
      fields: null,
    });
  });
});

describe("429", () => {
  it("waits the Retry-After: 1 the server asks for, then returns the answer", async () => {
    server.script = [throttled("1"), json(200, ME)];
    const started = Date.now();
    expect(await createClient({ baseUrl: server.baseUrl }).users.getMe()).toEqual(ME);
    expect(server.seen).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("retries a throttled POST too: the server refused it before doing anything", async () => {
    server.script = [throttled("0"), json(201, { id: "b1" })];
    const client = createClient({ baseUrl: server.baseUrl });
    expect(await client.budgets.create({ account: "a1", name: "Rent" } as never)).toEqual({ id: "b1" });
    expect(requests()).toEqual(["POST /api/v1/budgets/", "POST /api/v1/budgets/"]);
  });

  it("gives up after the configured number of retries with the 429 as an ApiError", async () => {
    server.script = [throttled("0"), throttled("0"), throttled("0")];
    const error = await createClient({ baseUrl: server.baseUrl, retries: 1 })
      .users.getMe()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: "throttled", detail: "Slow down.", retryAfter: 0 });
    expect(server.seen).toHaveLength(2);
  });

  it("does not wait out a Retry-After longer than the cap: the caller hears at once", async () => {
    server.script = [throttled("3600")];
    const started = Date.now();
    const error = await createClient({ baseUrl: server.baseUrl })
      .users.getMe()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, retryAfter: 3600 });
    expect(server.seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);

    server.script = [throttled("2")];
    const capped = createClient({ baseUrl: server.baseUrl, maxRetryAfterSeconds: 1 });
    await expect(capped.users.getMe()).rejects.toMatchObject({ status: 429, retryAfter: 2 });
    expect(server.seen).toHaveLength(2);
  });

  it("stops waiting when the call is aborted", async () => {
    server.script = [throttled("30"), json(200, ME)];
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 50);
    const call = createClient({ baseUrl: server.baseUrl }).users.getMe({}, { signal: abort.signal });
    await expect(call).rejects.toThrow(/abort/i);
    expect(server.seen).toHaveLength(1);
  });

  it("tells onRetry why it waits and for how long, once before each wait", async () => {
    server.script = [throttled("1"), throttled("0"), json(200, ME)];
    const notices: RetryNotice[] = [];
    const client = createClient({ baseUrl: server.baseUrl, onRetry: (notice) => notices.push(notice) });
    expect(await client.users.getMe()).toEqual(ME);
    expect(notices).toEqual([
      {
        reason: "throttled",
        delayMs: 1000,
        retry: 1,
        method: "GET",
        url: `${server.baseUrl}/api/v1/users/me/`,
      },
      { reason: "throttled", delayMs: 0, retry: 2, method: "GET", url: `${server.baseUrl}/api/v1/users/me/` },
    ]);

    // Not for an answer that is thrown at once, nor for a reset that is never resent.
    notices.length = 0;
    server.script = [throttled("3600")];
    await expect(client.users.getMe()).rejects.toMatchObject({ status: 429 });
    server.script = [{ status: 0, destroy: true }, json(200, ME)];
    expect(await client.users.getMe()).toEqual(ME);
    server.script = [
      json(409, { detail: "In progress.", code: "idempotency_key_in_progress" }, { "retry-after": "0" }),
      json(201, { id: "b1" }),
    ];
    await client.budgets.create({ name: "Rent" } as never);
    expect(notices.map(({ reason, delayMs, method }) => [reason, delayMs, method])).toEqual([
      ["connection_reset", 50, "GET"],
      ["key_in_progress", 0, "POST"],
    ]);
  });

  it("never retries other errors", async () => {
    server.script = [json(503, { detail: "Down.", code: "unavailable" }, { "retry-after": "0" })];
    await expect(createClient({ baseUrl: server.baseUrl }).users.getMe()).rejects.toMatchObject({
      status: 503,
      code: "unavailable",
    });
    expect(server.seen).toHaveLength(1);
  });
});

describe("connection resets", () => {
  it("resends an idempotent request (GET, PUT, DELETE) whose socket was destroyed", async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    server.script = [{ status: 0, destroy: true }, json(200, ME)];
    expect(await client.users.getMe()).toEqual(ME);
    server.script = [{ status: 0, destroy: true }, json(200, { id: "a1" })];
    expect(await client.bankAccounts.replace({ id: "a1", name: "Bills" } as never)).toEqual({ id: "a1" });
    server.script = [{ status: 0, destroy: true }, { status: 204 }];
    expect(await client.bankAccounts.delete({ id: "a1" })).toBeUndefined();
    expect(requests()).toEqual([
      "GET /api/v1/users/me/",
      "GET /api/v1/users/me/",
      "PUT /api/v1/bank-accounts/a1/",
      "PUT /api/v1/bank-accounts/a1/",
      "DELETE /api/v1/bank-accounts/a1/",
      "DELETE /api/v1/bank-accounts/a1/",
    ]);
    expect(JSON.parse(server.seen[3]?.body ?? "")).toEqual({ name: "Bills" });
  });

  it("resends a POST or PATCH too, with the Idempotency-Key it carries (idempotency-key.test.ts)", async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    server.script = [{ status: 0, destroy: true }, json(201, { id: "t1" })];
    expect(await client.transactions.create({ amount: "1.00" } as never)).toEqual({ id: "t1" });
    expect(requests()).toEqual(["POST /api/v1/transactions/", "POST /api/v1/transactions/"]);
  });

  it("never resends a POST without a key (a public route): the server may have applied it", async () => {
    server.script = [{ status: 0, destroy: true }, { status: 204 }];
    const client = createClient({ baseUrl: server.baseUrl });
    const error = await client.credentials
      .requestPasswordReset({ email: "ann@example.com" })
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "UND_ERR_SOCKET" });
    expect(requests()).toEqual(["POST /api/v1/password-reset/"]);
  });

  it("gives up after the configured number of retries", async () => {
    server.script = [{ status: 0, destroy: true }, { status: 0, destroy: true }, json(200, ME)];
    await expect(createClient({ baseUrl: server.baseUrl, retries: 1 }).users.getMe()).rejects.toMatchObject({
      code: "UND_ERR_SOCKET",
    });
    expect(server.seen).toHaveLength(2);
  });
});

describe("files", () => {
  it("sends a write holding a file as multipart/form-data, and resends it whole after a reset", async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    server.script = [{ status: 0, destroy: true }, json(200, { id: "t1" })];
    const image = { bytes: Buffer.from("not really a png"), filename: "r.png" };
    expect(await client.transactions.update({ id: "t1", image, memo: null })).toEqual({ id: "t1" });
    expect(requests()).toEqual(["PATCH /api/v1/transactions/t1/", "PATCH /api/v1/transactions/t1/"]);
    for (const seen of server.seen) {
      expect(seen.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
      expect(seen.body).toContain('name="image"; filename="r.png"');
      expect(seen.body).toContain("not really a png");
      expect(seen.body).toMatch(/name="memo"\r\n\r\n\r\n/);
    }
    expect(server.seen[1]?.headers["idempotency-key"]).toBe(server.seen[0]?.headers["idempotency-key"]);
  });

  it("hands a download over unread, with its type, name and size; its errors are ApiErrors", async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    server.script = [
      {
        status: 200,
        headers: {
          "content-type": "image/png",
          "content-disposition": 'inline; filename="r.png"',
          "content-length": "9",
        },
        body: "PNG BYTES",
      },
      json(404, { detail: "Not found.", code: "not_found" }),
    ];
    const file = await client.transactions.download("t1", "image");
    expect(file).toMatchObject({ contentType: "image/png", filename: "r.png", size: 9 });
    expect(await new Response(file.stream).text()).toBe("PNG BYTES");
    expect(server.seen[0]?.headers.accept).toBe("*/*");
    await expect(client.transactions.getTransactionDocument({ id: "t1" })).rejects.toMatchObject({
      status: 404,
      code: "not_found",
    });
    expect(requests()).toEqual([
      "GET /api/v1/transactions/t1/image/",
      "GET /api/v1/transactions/t1/document/",
    ]);
  });
});

describe("pagination", () => {
  const page = (n: number, next: string | null) =>
    json(200, { count: 3, next, previous: null, results: [n] });
  const pages = () => [
    page(1, "http://internal:9999/api/v1/banks/?ordering=name&page=2&page_size=1"),
    page(2, "http://internal:9999/api/v1/banks/?ordering=name&page=3&page_size=1"),
    page(3, null),
  ];
  const expectedUrls = [
    "/api/v1/banks/?ordering=name&page_size=1",
    "/api/v1/banks/?ordering=name&page_size=1&page=2",
    "/api/v1/banks/?ordering=name&page_size=1&page=3",
  ];

  it("follows next with its query on the configured base URL, whatever host the link names", async () => {
    server.script = pages();
    const client = createClient({ baseUrl: server.baseUrl });
    const items: unknown[] = [];
    for await (const item of client.paginate(bankRoutes.list, { ordering: "name", page_size: 1 }))
      items.push(item);
    expect(items).toEqual([1, 2, 3]);
    expect(server.seen.map((r) => r.url)).toEqual(expectedUrls);
  });

  it("takes a resource's list method as well as a route", async () => {
    server.script = pages();
    const client = createClient({ baseUrl: server.baseUrl });
    const items: unknown[] = [];
    for await (const item of client.paginate(client.banks.list, { ordering: "name", page_size: 1 }))
      items.push(item);
    expect(items).toEqual([1, 2, 3]);
    expect(server.seen.map((r) => r.url)).toEqual(expectedUrls);
  });

  it("refuses a next link that loops back", async () => {
    const loop = "http://x/api/v1/banks/?page=2";
    server.script = [page(1, loop), page(2, loop), page(3, null)];
    const walk = async () => {
      for await (const _ of createClient({ baseUrl: server.baseUrl }).paginate(bankRoutes.list)) void _;
    };
    await expect(walk()).rejects.toThrow("pagination loops back");
  });
});
