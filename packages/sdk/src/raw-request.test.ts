import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, useScriptedServer } from "../test/testing/scripted-server";
import { createClient } from "./client";
import { fileWriteJournal } from "./file-write-journal";

/*
 * client.request against a scripted server: what goes on the wire for any method and path. The
 * same through the CLI against the real API: apps/cli/src/commands/api.cli.test.ts.
 */

const server = useScriptedServer();
const sent = () => server.seen.map((r) => `${r.method} ${r.url}`);

describe("client.request", () => {
  it("sends a GET below /api with the credential and the query, and answers the parsed JSON", async () => {
    server.script = [json(200, { results: [] }), json(200, { ok: true })];
    const client = createClient({ baseUrl: server.baseUrl, auth: { apiKey: "allot_k" } });
    expect(await client.request("get", "/v1/banks/", { query: { search: "a b", page: 2 } })).toEqual({
      results: [],
    });
    // A query in the path is kept, the option's is added; a list repeats its name.
    await client.request("GET", "/v1/activity/?ordering=-created_at", { query: { type: ["a", "b"] } });
    expect(sent()).toEqual([
      "GET /api/v1/banks/?search=a+b&page=2",
      "GET /api/v1/activity/?ordering=-created_at&type=a&type=b",
    ]);
    expect(server.seen[0]?.headers.authorization).toBe("Api-Key allot_k");
    expect(server.seen[0]?.headers["idempotency-key"]).toBeUndefined();
    expect(server.seen[0]?.body).toBe("");
  });

  it("sends a write's JSON body with an Idempotency-Key, and the same key on its retries", async () => {
    server.script = [
      json(429, { detail: "Slow down.", code: "throttled" }, { "retry-after": "0" }),
      json(201, { id: "b1" }),
      { status: 204 },
    ];
    const client = createClient({ baseUrl: server.baseUrl, auth: { bearer: "jwt" } });
    expect(await client.request("POST", "/v1/budgets/", { body: { name: "Rent", amount: 5 } })).toEqual({
      id: "b1",
    });
    expect(await client.request("DELETE", "/v1/budgets/b1/")).toBeUndefined();
    expect(sent()).toEqual(["POST /api/v1/budgets/", "POST /api/v1/budgets/", "DELETE /api/v1/budgets/b1/"]);
    const [first, second, removal] = server.seen;
    expect(JSON.parse(first?.body ?? "")).toEqual({ name: "Rent", amount: 5 });
    expect(first?.headers["content-type"]).toBe("application/json");
    expect(first?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.headers["idempotency-key"]).toBe(first?.headers["idempotency-key"]);
    expect(removal?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(removal?.headers.authorization).toBe("Bearer jwt");
  });

  it("sends braces as they are written in a URL, not as route parameters", async () => {
    server.script = [json(404, { detail: "Not found.", code: "not_found" })];
    await expect(
      createClient({ baseUrl: server.baseUrl }).request("GET", "/v1/budgets/{id}/"),
    ).rejects.toMatchObject({
      status: 404,
      code: "not_found",
      body: { detail: "Not found.", code: "not_found" },
    });
    expect(sent()).toEqual(["GET /api/v1/budgets/%7Bid%7D/"]);
  });

  it.each([
    ["GET", "https://elsewhere.example/api/v1/banks/", {}, "is not a path below /api"],
    ["GET", "//elsewhere.example/v1/banks/", {}, "is not a path below /api"],
    ["GET", "v1/banks/", {}, "is not a path below /api"],
    ["GET", "/v1/banks/#top", {}, "is not a path below /api"],
    ["GET", "/v1/banks/", { body: { a: 1 } }, "GET takes no body"],
    ["DELETE", "/v1/banks/x/", { body: {} }, "DELETE takes no body"],
    ["POST", "/v1/banks/", { body: [1, 2] }, "POST takes a JSON object as its body"],
    ["TRACE", "/v1/banks/", {}, "unknown method 'TRACE'"],
  ])("refuses %s %s %j before sending anything", async (method, path, options, message) => {
    const client = createClient({ baseUrl: server.baseUrl });
    await expect(client.request(method as never, path, options as never)).rejects.toThrow(message);
    expect(server.seen).toEqual([]);
  });
});

describe("client.request with a write journal", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "allot-sdk-raw-"));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("resends an unanswered write with its first key, in a later client", async () => {
    const journal = () => fileWriteJournal(join(folder, "journal.json"), { onWarning: () => {} });
    const write = (retries: number) =>
      createClient({
        baseUrl: server.baseUrl,
        auth: { apiKey: "k" },
        writeJournal: journal(),
        retries,
      }).request("POST", "/v1/bank-accounts/", { body: { name: "Checking" } });
    server.script = [{ status: 0, destroy: true }];
    await expect(write(0)).rejects.toMatchObject({ code: "UND_ERR_SOCKET" });
    server.script = [json(201, { id: "a1" }), json(201, { id: "a2" })];
    expect(await write(0)).toEqual({ id: "a1" });
    // Answered: the journal forgets it, and the next such write is a new one.
    expect(await write(0)).toEqual({ id: "a2" });
    const keys = server.seen.map((request) => request.headers["idempotency-key"]);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});
