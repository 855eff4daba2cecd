import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testEngines } from "@allot/db/testing/test-databases";
import { createClient } from "@allot/sdk/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";
import { runCli } from "../../test/testing/run-cli";
import { useScriptedProxy } from "../../test/testing/scripted-proxy";

// Each test runs the real CLI several times (a second or more each to start, more on a busy machine).
vi.setConfig({ testTimeout: 600_000, hookTimeout: 300_000 });

/*
 * `allot api` against the real API, through a proxy that shows what went on the wire (and can cut
 * an answer): any route with the profile's credential, fields and --data, the API's error body on
 * stderr, and writes that carry an Idempotency-Key and go through the write journal.
 */

const ACCOUNTS = /^\/api\/v1\/bank-accounts\/$/;

describe.each(testEngines())("allot api, against a running API (%s)", (engine) => {
  const server = useCliServer(engine);
  const proxy = useScriptedProxy(() => server.baseUrl);
  let folder: string;
  let counter = 0;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "allot-cli-api-"));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  /** A user with an API key; the CLI runs as them through the proxy, with its own config (so journal). */
  async function setUp() {
    counter += 1;
    const user = await server.t.user();
    const apiKey = (await server.t.apiKey(user)).replace(/^Api-Key /, "");
    const client = createClient({ baseUrl: server.baseUrl, auth: { apiKey } });
    const bank = await server.bank();
    const env = {
      ALLOT_API_KEY: apiKey,
      ALLOT_URL: proxy.url,
      ALLOT_CONFIG: join(folder, `c-${counter}.json`),
    };
    const allot = (args: string[], stdin?: string) => runCli(["api", ...args], { env, stdin });
    return { user, client, bank, allot };
  }

  it("reads any route, by either form of its path, with the query from --field", async () => {
    const { user, bank, allot } = await setUp();
    const me = await allot(["get", "/v1/users/me/"]);
    expect(me.stderr).toBe("");
    expect(me.code).toBe(0);
    // Not a terminal: one line of JSON, the API's object as it is.
    expect(me.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(me.json()).toMatchObject({ username: user.email.toLowerCase() });

    const banks = await allot(["GET", "v1/banks/", "--field", "ordering=-name", "-f", "page_size:=5"]);
    expect(banks.code, banks.stderr).toBe(0);
    expect(banks.json<{ results: { id: string }[] }>().results.map((b) => b.id)).toContain(bank.id);
    expect(proxy.seen.map((request) => `${request.method} ${request.path}`)).toEqual([
      "GET /api/v1/users/me/",
      "GET /api/v1/banks/?ordering=-name&page_size=5",
    ]);
    expect(proxy.seen.every((request) => request.key === undefined)).toBe(true);
  });

  it("writes with --field, --data and --data - (stdin), each with an Idempotency-Key", async () => {
    const { client, bank, allot } = await setUp();
    const created = await allot([
      "POST",
      "/api/v1/bank-accounts/",
      "-f",
      "name=Checking",
      "-f",
      `bank=${bank.id}`,
    ]);
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    const account = created.json<{ id: string; name: string }>();
    expect(account.name).toBe("Checking");

    await writeFile(join(folder, "rename.json"), '{"name": "Joint"}');
    const renamed = await allot([
      "PATCH",
      `/v1/bank-accounts/${account.id}/`,
      "--data",
      `@${join(folder, "rename.json")}`,
    ]);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.json()).toMatchObject({ id: account.id, name: "Joint" });
    const budget = await allot(
      ["POST", "/v1/budgets/", "--data", "-"],
      JSON.stringify({
        bank_account: account.id,
        name: "Rent",
        budget_type: "G",
        funding_type: "F",
        target_balance: "1200",
        funding_amount: "100",
      }),
    );
    expect(budget.code, budget.stderr).toBe(0);
    expect(budget.json()).toMatchObject({ name: "Rent", target_balance: "1200.00" });

    const writes = proxy.seen.filter((request) => request.method !== "GET");
    expect(writes.map((request) => `${request.method} ${request.status}`)).toEqual([
      "POST 201",
      "PATCH 200",
      "POST 201",
    ]);
    for (const write of writes) expect(write.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(writes.map((write) => write.key)).size).toBe(3);
    expect((await client.bankAccounts.get({ id: account.id })).name).toBe("Joint");
  });

  it("exits 1 with the API's error body on stderr, and 2 before sending anything it cannot send", async () => {
    const { allot } = await setUp();
    const missing = await allot(["GET", "/v1/budgets/7f0c2a4e-0000-4000-8000-000000000001/"]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    expect(missing.errorJson()).toEqual({ detail: expect.any(String), code: "not_found" });

    const invalid = await allot(["POST", "/v1/bank-accounts/", "-f", "name="]);
    expect(invalid.code).toBe(1);
    expect(invalid.errorJson()).toMatchObject({ name: [expect.any(String)], bank: [expect.any(String)] });
    const sent = proxy.seen.length;

    const elsewhere = await allot(["GET", "https://elsewhere.example/api/v1/users/me/"]);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain("is not on http://127.0.0.1:");
    expect(elsewhere.stderr).toContain("sends your credential to that server only");
    const ownUrl = await allot(["GET", `${proxy.url}/api/v1/users/me/`]);
    expect(ownUrl.code, ownUrl.stderr).toBe(0);

    for (const [args, message] of [
      [["TRACE", "/v1/banks/"], "choose one of GET, POST, PUT, PATCH, DELETE"],
      [["GET", "/v1/banks/", "--data", "{}"], "GET sends no body"],
      [["POST", "/v1/banks/", "--data", "{}", "-f", "a=b"], "not both"],
      [["POST", "/v1/banks/", "--data", "[1]"], "--data must be a JSON object"],
      [["POST", "/v1/banks/", "-f", "page_size:=five"], "the value after := must be JSON"],
    ] as const) {
      const refused = await allot([...args]);
      expect(refused.stderr).toContain(message);
      expect(refused.code).toBe(2);
    }
    expect(proxy.seen.length).toBe(sent + 1);
  });

  it("resends a write whose answers were all lost with the same key: one account, not two", async () => {
    const { client, bank, allot } = await setUp();
    const args = ["POST", "/v1/bank-accounts/", "-f", "name=Savings", "-f", `bank=${bank.id}`];
    proxy.script = ({ method, path }) => (method === "POST" && ACCOUNTS.test(path) ? "cut" : "pass");
    const cut = await allot(args);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain("hint: the write may have gone through. Run the same command again");
    const [first] = proxy.seen;

    proxy.script = () => "pass";
    const again = await allot(args);
    expect(again.code, again.stderr).toBe(0);
    expect(proxy.seen.at(-1)).toMatchObject({ key: first?.key, status: 201, replayed: true });
    const accounts = await client.bankAccounts.list({});
    expect(accounts.results.filter((a) => a.name === "Savings").map((a) => a.id)).toEqual([
      again.json<{ id: string }>().id,
    ]);
  });
});
