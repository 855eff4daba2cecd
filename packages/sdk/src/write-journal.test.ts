import { describe, expect, it } from "vitest";
import { json, type Scripted, useScriptedServer } from "../test/testing/scripted-server";
import { createClient } from "./client";
import type { JournaledWrite, WriteJournal } from "./write-journal";

/*
 * How a client uses its write journal, against a scripted server: which calls it is asked about,
 * that the key it gives is the one sent on every attempt, and which endings settle a write (its
 * entry goes) or leave it to be resent. The file-backed journal: file-write-journal.test.ts.
 */

const server = useScriptedServer();
const keys = () => server.seen.map((r) => r.headers["idempotency-key"]);
const reset: Scripted = { status: 0, destroy: true };
const BUDGET = { id: "b1", name: "Rent" };
const createBudget = (client: ReturnType<typeof createClient>, options = {}) =>
  client.budgets.create({ bank_account: "a1", name: "Rent" } as never, options);

/** A journal that hands out `keyToGive` (else the fresh key) and records what it was told. */
function recordingJournal(keyToGive?: string) {
  const calls: string[] = [];
  const writes: JournaledWrite[] = [];
  const journal: WriteJournal = {
    async begin(write, freshKey) {
      writes.push(write);
      const key = keyToGive ?? freshKey;
      calls.push(`begin ${write.method} ${write.path} -> ${keyToGive ? key : "fresh"}`);
      return key;
    },
    async end(write, key, settled) {
      calls.push(
        `end ${write.method} ${write.path} ${key === keyToGive ? key : "fresh"} ${settled ? "settled" : "kept"}`,
      );
    },
  };
  return { journal, calls, writes };
}

describe("which calls go through the journal", () => {
  it("every keyed write, with the key it gives on the wire; no GET, no public route, no caller's key", async () => {
    server.respond = (request) =>
      request.url.startsWith("/api/token/")
        ? json(200, { access: "h.e.s" }, { "set-cookie": "refresh_token=rt; Path=/api/token/" })
        : json(request.method === "GET" ? 200 : 201, BUDGET);
    const { journal, calls } = recordingJournal("journal-key");
    const client = createClient({
      baseUrl: server.baseUrl,
      auth: { apiKey: "allot_k" },
      writeJournal: journal,
    });
    await createBudget(client);
    await client.bankAccounts.delete({ id: "a1" });
    await client.budgets.list({});
    await client.auth.login({ email: "ann@example.com", password: "pw" });
    await createBudget(client, { idempotencyKey: "callers" });
    await createBudget(client, { headers: { "Idempotency-Key": "from-a-header" } });

    expect(calls).toEqual([
      "begin POST /v1/budgets/ -> journal-key",
      "end POST /v1/budgets/ journal-key settled",
      "begin DELETE /v1/bank-accounts/a1/ -> journal-key",
      "end DELETE /v1/bank-accounts/a1/ journal-key settled",
    ]);
    expect(keys()).toEqual(["journal-key", "journal-key", undefined, undefined, "callers", "from-a-header"]);
  });

  it("is asked once a call: the SDK's own resends keep the key it gave", async () => {
    server.script = [
      reset,
      json(409, { detail: "Busy.", code: "idempotency_key_in_progress" }, { "retry-after": "0" }),
      json(201, BUDGET),
    ];
    const { journal, calls } = recordingJournal("journal-key");
    expect(await createBudget(createClient({ baseUrl: server.baseUrl, writeJournal: journal }))).toEqual(
      BUDGET,
    );
    expect(keys()).toEqual(["journal-key", "journal-key", "journal-key"]);
    expect(calls).toEqual([
      "begin POST /v1/budgets/ -> journal-key",
      "end POST /v1/budgets/ journal-key settled",
    ]);
  });

  it("tells the journal the request and the caller in a fingerprint, and the fresh key it would send", async () => {
    server.respond = () => json(201, BUDGET);
    const { journal, writes, calls } = recordingJournal();
    const client = createClient({
      baseUrl: server.baseUrl,
      auth: { apiKey: "allot_k" },
      writeJournal: journal,
    });
    await createBudget(client);
    await createBudget(client);
    await createClient({
      baseUrl: server.baseUrl,
      auth: { apiKey: "allot_other" },
      writeJournal: journal,
    }).budgets.create({ bank_account: "a1", name: "Rent" } as never);
    expect(writes[0]?.fingerprint).toBe(writes[1]?.fingerprint);
    expect(writes[2]?.fingerprint).not.toBe(writes[0]?.fingerprint);
    expect(JSON.stringify(writes)).not.toContain("allot_");
    // A fresh key every call, as without a journal.
    expect(new Set(keys()).size).toBe(3);
    expect(calls.filter((c) => c.startsWith("end"))).toEqual(
      Array(3).fill("end POST /v1/budgets/ fresh settled"),
    );
  });
});

describe("which endings settle a write", () => {
  const busy = json(409, { detail: "Busy.", code: "idempotency_key_in_progress" }, { "retry-after": "0" });
  const refusal = (status: number, code: string) => json(status, { detail: "No.", code });

  it.each<[string, "settled" | "kept", Scripted[]]>([
    ["a 201", "settled", [json(201, BUDGET)]],
    ["a field map 400", "settled", [json(400, { name: ["Required."] })]],
    ["a 404", "settled", [refusal(404, "not_found")]],
    ["another 409", "settled", [refusal(409, "conflict")]],
    ["a 422 reused key", "settled", [refusal(422, "idempotency_key_reused")]],
    ["a connection lost on every attempt", "kept", [reset, reset]],
    ["a 409 in progress on every attempt", "kept", [busy, busy]],
    ["a 401", "kept", [refusal(401, "not_authenticated")]],
    ["a 403", "kept", [refusal(403, "interactive_login_required")]],
    [
      "a 429 on every attempt",
      "kept",
      [
        json(429, { detail: "Slow.", code: "throttled" }, { "retry-after": "0" }),
        json(429, { detail: "Slow.", code: "throttled" }, { "retry-after": "0" }),
      ],
    ],
    ["a 500", "kept", [refusal(500, "server_error")]],
    [
      "a gateway's HTML 504",
      "kept",
      [{ status: 504, headers: { "content-type": "text/html" }, body: "<h1>Gateway Timeout</h1>" }],
    ],
    [
      "a 2xx whose body is not JSON",
      "kept",
      [{ status: 201, headers: { "content-type": "text/html" }, body: "<p>ok</p>" }],
    ],
  ])("%s: %s", async (_ending, expected, script) => {
    server.script = script;
    const { journal, calls } = recordingJournal("journal-key");
    await createBudget(createClient({ baseUrl: server.baseUrl, retries: 1, writeJournal: journal })).catch(
      () => undefined,
    );
    expect(calls).toEqual([
      "begin POST /v1/budgets/ -> journal-key",
      `end POST /v1/budgets/ journal-key ${expected}`,
    ]);
  });
});
