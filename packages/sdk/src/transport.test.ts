import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { listBanksRoute } from "@allot/contract/banks/routes";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "./api-error";
import { createClient } from "./client";

/*
 * The transport's edge cases against a scripted HTTP server (the real API cannot be told to send
 * an HTML 502 or a one-hour Retry-After). The SDK against the real API: apps/cli/src/sdk.http.test.ts.
 */

interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let baseUrl: string;
let script: Scripted[] = [];
let seen: Seen[] = [];

beforeAll(async () => {
  server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    seen.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body });
    const next = script.shift() ?? { status: 500, body: "script exhausted" };
    response.writeHead(next.status, { "content-type": "application/json", ...next.headers });
    response.end(next.body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  script = [];
  seen = [];
});

const json = (status: number, value: unknown, headers: Record<string, string> = {}): Scripted => ({
  status,
  headers,
  body: JSON.stringify(value),
});
const throttled = (retryAfter: string) =>
  json(429, { detail: "Slow down.", code: "throttled" }, { "retry-after": retryAfter });
const ME = { username: "ann", email: "ann@example.com" };

describe("requests", () => {
  it("sends the credential, the method and the JSON body the route calls for, below <baseUrl>/api", async () => {
    script = [json(200, ME), { status: 204 }];
    const client = createClient({ baseUrl: `${baseUrl}/prefix/`, auth: { apiKey: "allot_k" } });
    expect(await client.users.getMe()).toEqual(ME);
    expect(await client.bankAccounts.update({ id: "a1", name: "Checking" })).toBeUndefined();
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /prefix/api/v1/users/me/",
      "PATCH /prefix/api/v1/bank-accounts/a1/",
    ]);
    expect(seen[0]?.headers.authorization).toBe("Api-Key allot_k");
    expect(seen[0]?.headers["content-type"]).toBeUndefined();
    expect(seen[1]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(seen[1]?.body ?? "")).toEqual({ name: "Checking" });

    script = [json(200, ME)];
    await createClient({ baseUrl, auth: { bearer: "jwt" } }).users.getMe();
    expect(seen[2]?.headers.authorization).toBe("Bearer jwt");
  });

  it("turns a body that is not JSON into an ApiError that says what came back", async () => {
    script = [{ status: 502, headers: { "content-type": "text/html" }, body: "<h1>Bad gateway</h1>" }];
    const error = await createClient({ baseUrl })
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
  it("retries after the Retry-After the server asks for, then returns the answer", async () => {
    script = [throttled("0"), throttled("1"), json(200, ME)];
    const started = Date.now();
    expect(await createClient({ baseUrl }).users.getMe()).toEqual(ME);
    expect(seen).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("gives up after the configured number of retries with the 429 as an ApiError", async () => {
    script = [throttled("0"), throttled("0"), throttled("0")];
    const error = await createClient({ baseUrl, retries: 1 })
      .users.getMe()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: "throttled", detail: "Slow down.", retryAfter: 0 });
    expect(seen).toHaveLength(2);
  });

  it("does not wait out a Retry-After longer than the limit: the caller hears at once", async () => {
    script = [throttled("3600")];
    const started = Date.now();
    const error = await createClient({ baseUrl })
      .users.getMe()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, retryAfter: 3600 });
    expect(seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("stops waiting when the call is aborted", async () => {
    script = [throttled("30"), json(200, ME)];
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 50);
    const call = createClient({ baseUrl }).users.getMe({}, { signal: abort.signal });
    await expect(call).rejects.toThrow(/abort/i);
    expect(seen).toHaveLength(1);
  });

  it("never retries other errors", async () => {
    script = [json(503, { detail: "Down.", code: "unavailable" }, { "retry-after": "0" })];
    await expect(createClient({ baseUrl }).users.getMe()).rejects.toMatchObject({
      status: 503,
      code: "unavailable",
    });
    expect(seen).toHaveLength(1);
  });
});

describe("pagination", () => {
  it("follows next with its query on the configured base URL, whatever host the link names", async () => {
    const page = (n: number, next: string | null) =>
      json(200, { count: 3, next, previous: null, results: [n] });
    script = [
      page(1, "http://internal:9999/api/v1/banks/?ordering=name&page=2&page_size=1"),
      page(2, "http://internal:9999/api/v1/banks/?ordering=name&page=3&page_size=1"),
      page(3, null),
    ];
    const client = createClient({ baseUrl });
    const items: unknown[] = [];
    for await (const item of client.paginate(listBanksRoute, { ordering: "name", page_size: 1 }))
      items.push(item);
    expect(items).toEqual([1, 2, 3]);
    expect(seen.map((r) => r.url)).toEqual([
      "/api/v1/banks/?ordering=name&page_size=1",
      "/api/v1/banks/?ordering=name&page_size=1&page=2",
      "/api/v1/banks/?ordering=name&page_size=1&page=3",
    ]);
  });
});
