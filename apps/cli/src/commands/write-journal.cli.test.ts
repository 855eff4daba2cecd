import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { testEngines } from "@allot/db/testing/test-databases";
import { type Client, createClient } from "@allot/sdk/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";
import { runCli } from "../../test/testing/run-cli";
import { type ProxiedRequest, useScriptedProxy } from "../../test/testing/scripted-proxy";

// Each test runs the real CLI several times (a second or more each to start, more on a busy machine).
vi.setConfig({ testTimeout: 900_000, hookTimeout: 300_000 });

/*
 * The CLI's write journal against the real API, through a proxy that can make the server commit a
 * write and its answer never reach the CLI: the CLI killed while it waits (the proxy holds the
 * answer), or every attempt's connection cut after the server answered. The same command run again
 * sends the same Idempotency-Key, says so, and the server answers from its record: one transfer,
 * one split, one import. Without the journal the second run makes a second one.
 */

const FIXTURES = fileURLToPath(new URL("../../test/fixtures/", import.meta.url));
const resumed = (name: string) =>
  new RegExp(
    `^Resuming an unanswered ${name} sent at \\d{2}:\\d{2} \\(same Idempotency-Key\\): the server applies it once\\.\\n$`,
  );
const transfer = (amount: string) => ["transfer", amount, "--from", "Unallocated", "--to", "Groceries"];
const posts = (seen: ProxiedRequest[], path: RegExp) =>
  seen.filter((request) => request.method === "POST" && path.test(request.path));
const TRANSFERS = /^\/api\/v1\/internal-transactions\/$/;

interface Entry {
  fingerprint: string;
  key: string;
  sent_at: string;
  pid: number;
}

const journalEntries = async (path: string): Promise<Entry[]> =>
  (JSON.parse(await readFile(path, "utf8")) as { entries: Entry[] }).entries;
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe.each(testEngines())("the write journal of allot, against a running API (%s)", (engine) => {
  const server = useCliServer(engine);
  const proxy = useScriptedProxy(() => server.baseUrl);
  let folder: string;
  let counter = 0;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "allot-cli-journal-"));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  /**
   * A user with an API key and one account, Checking, holding a Groceries budget; the CLI runs as
   * them through the proxy, with a config file (so a journal) of its own.
   */
  async function setUp(balance = "1000.00") {
    counter += 1;
    const user = await server.t.user();
    const apiKey = (await server.t.apiKey(user)).replace(/^Api-Key /, "");
    const client = createClient({ baseUrl: server.baseUrl, auth: { apiKey } });
    const bank = await server.bank();
    const account = await client.bankAccounts.create({
      name: "Checking",
      bank: bank.id,
      posted_balance: balance,
      available_balance: balance,
    });
    await client.budgets.create({
      bank_account: account.id,
      name: "Groceries",
      budget_type: "G",
      funding_type: "F",
      target_balance: "500",
      funding_amount: "10",
    });
    const journalPath = join(folder, `config-${counter}.write-journal.json`);
    const env = {
      ALLOT_API_KEY: apiKey,
      ALLOT_URL: proxy.url,
      ALLOT_CONFIG: join(folder, `config-${counter}.json`),
    };
    const allot = (args: string[], signal?: AbortSignal) => runCli(args, { env, signal });
    return { apiKey, client, account, journalPath, allot };
  }

  const transfersOf = async (client: Client, accountId: string) =>
    (await client.internalTransactions.list({ bank_account: accountId })).results.map((t) => t.amount).sort();
  const eventsOf = async (client: Client, accountId: string, type: "transaction.split" | "import.synced") =>
    (await client.activity.list({ id: accountId, type: [type] })).count;

  it("makes a transfer once when the CLI was killed after the server committed it and is run again", async () => {
    const { apiKey, client, account, journalPath, allot } = await setUp();
    proxy.script = ({ method, path }) => (method === "POST" && TRANSFERS.test(path) ? "hold" : "pass");
    const kill = new AbortController();
    const lost = proxy.lost();
    const killed = allot(transfer("50"), kill.signal);
    const held = await lost;
    expect(held.status).toBe(201);
    // Journaled before it left: the request's hash and its key, never the credential.
    const text = await readFile(journalPath, "utf8");
    expect(text).not.toContain(apiKey);
    expect(JSON.parse(text)).toEqual({
      version: 1,
      entries: [
        {
          fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
          key: held.key,
          sent_at: expect.any(String),
          pid: expect.any(Number),
        },
      ],
    });
    kill.abort();
    expect((await killed).code).toBeNull();
    expect(await transfersOf(client, account.id)).toEqual(["50.00"]);

    proxy.script = () => "pass";
    const again = await allot(transfer("50"));
    expect(again.stderr).toMatch(resumed("transfer"));
    expect(again.code).toBe(0);
    // The answer the killed run never got, replayed.
    expect(again.stdout).toBe(
      [
        "Moved 50.00 USD from 'Unallocated' to 'Groceries'.",
        "BUDGET       BALANCE",
        "Unallocated   950.00",
        "Groceries      50.00",
        "",
      ].join("\n"),
    );
    expect(posts(proxy.seen, TRANSFERS).map((p) => [p.key, p.status, p.replayed])).toEqual([
      [held.key, 201, false],
      [held.key, 201, true],
    ]);
    expect(await transfersOf(client, account.id)).toEqual(["50.00"]);
    expect(await exists(journalPath)).toBe(false);
  });

  it("keeps nothing of an answered write: the same transfer run twice on purpose is two transfers", async () => {
    const { client, account, journalPath, allot } = await setUp();
    for (const _ of [1, 2]) {
      const run = await allot(transfer("10"));
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(await exists(journalPath)).toBe(false);
    }
    const [first, second] = posts(proxy.seen, TRANSFERS);
    expect(first?.key).not.toBe(second?.key);
    expect(await transfersOf(client, account.id)).toEqual(["10.00", "10.00"]);
  });

  it("makes a split once when every answer to it was lost and it is run again (--json: no notice)", async () => {
    const { client, account, journalPath, allot } = await setUp();
    const bought = await client.transactions.create({
      bank_account: account.id,
      amount: "-100.00",
      transaction_date: "2026-01-10",
      transaction_type: "signature_purchase",
      raw_description: "SAFEWAY #1234",
    });
    const SPLITS = new RegExp(`^/api/v1/transactions/${bought.id}/splits/$`);
    const split = ["transactions", "split", bought.id, "--into", "groceries=60"];
    proxy.script = ({ method, path }) => (method === "POST" && SPLITS.test(path) ? "cut" : "pass");
    const cut = await allot(split);
    expect(cut.stderr).toMatch(
      /^error: Could not reach the API: .*\nhint: the write may have gone through. Run the same command again within 23 hours: it is resent with the same Idempotency-Key and applied once.\n$/,
    );
    expect(cut.code).toBe(1);
    // The SDK resent it after each cut with the same key: run once, then answered from the record.
    const attempts = posts(proxy.seen, SPLITS);
    expect(attempts.map((a) => [a.key, a.status, a.replayed])).toEqual([
      [attempts[0]?.key, 200, false],
      [attempts[0]?.key, 200, true],
      [attempts[0]?.key, 200, true],
      [attempts[0]?.key, 200, true],
    ]);
    expect((await journalEntries(journalPath)).map((e) => e.key)).toEqual([attempts[0]?.key]);

    proxy.script = () => "pass";
    const again = await allot([...split, "--json"]);
    // No retry notice: stderr holds only the split's overdraft warning, as JSON (decision 0055).
    expect(again.errorJson()).toEqual({
      warnings: [
        "'Groceries' is overdrawn: its balance is now -60.00 USD. Move money into it with `allot transfer AMOUNT --from BUDGET --to 'Groceries'`.",
      ],
    });
    expect(again.code).toBe(0);
    expect(
      again
        .json<{ amount: string }[]>()
        .map((a) => a.amount)
        .sort(),
    ).toEqual(["-40.00", "-60.00"]);
    expect(posts(proxy.seen, SPLITS).at(-1)).toMatchObject({ key: attempts[0]?.key, replayed: true });
    expect(await eventsOf(client, account.id, "transaction.split")).toBe(1);
    expect(await exists(journalPath)).toBe(false);
  });

  it("inserts an import's rows once when its sync's answer was lost and it is run again", async () => {
    const { client, account, journalPath, allot } = await setUp("0.00");
    const SYNC = new RegExp(`^/api/v1/bank-accounts/${account.id}/sync-scrape/$`);
    const isRealSync = (request: { method: string; path: string; body: string }) =>
      request.method === "POST" && SYNC.test(request.path) && JSON.parse(request.body).dry_run === false;
    const importFile = ["import", "scrape", join(FIXTURES, "scrape.json"), "--account", account.id];
    proxy.script = (request) => (isRealSync(request) ? "cut" : "pass");
    const cut = await allot(importFile);
    expect(cut.stderr).toMatch(/^error: Could not reach the API: /);
    expect(cut.code).toBe(1);
    const [sync] = proxy.seen.filter(isRealSync);
    expect(sync).toMatchObject({ status: 200, replayed: false });
    expect((await journalEntries(journalPath)).map((e) => e.key)).toEqual([sync?.key]);

    proxy.script = () => "pass";
    const again = await allot(importFile);
    expect(again.stderr).toMatch(resumed("import"));
    expect(again.code).toBe(0);
    // The lost answer, replayed: the rows it inserted, and the details they need, sent now.
    expect(again.stdout).toMatch(/^inserted\s+3 posted, 1 pending$/m);
    expect(again.stdout).toMatch(/^details applied\s+2 of 2$/m);
    expect(proxy.seen.filter(isRealSync).at(-1)).toMatchObject({ key: sync?.key, replayed: true });
    const rows = await client.transactions.list({ bank_account: account.id });
    expect(rows.results.map((r) => [r.amount, r.merchant_name])).toEqual([
      ["-23.99", null],
      ["-76.20", "Whole Foods Market"],
      ["-48.46", "Shell"],
      ["1297.00", null],
    ]);
    expect(await eventsOf(client, account.id, "import.synced")).toBe(1);
    expect(await exists(journalPath)).toBe(false);
  });

  it("never gives a journaled key to another request, nor once it is older than 23 hours", async () => {
    const { client, account, journalPath, allot } = await setUp();
    proxy.script = ({ method, path }) => (method === "POST" && TRANSFERS.test(path) ? "cut" : "pass");
    expect((await allot(transfer("7"))).code).toBe(1);
    const [lost] = await journalEntries(journalPath);

    proxy.script = () => "pass";
    const other = await allot(transfer("8"));
    expect(other.stderr).toBe("");
    expect(other.code).toBe(0);
    expect(posts(proxy.seen, TRANSFERS).at(-1)?.key).not.toBe(lost?.key);
    expect(await journalEntries(journalPath)).toEqual([lost]);

    // 23 hours and a minute later the server may have forgotten the key: it is not sent again.
    const aged = { ...lost, sent_at: new Date(Date.now() - (23 * 60 + 1) * 60_000).toISOString() };
    await writeFile(journalPath, JSON.stringify({ version: 1, entries: [aged] }));
    const late = await allot(transfer("7"));
    expect(late.stderr).toBe("");
    expect(late.code).toBe(0);
    expect(posts(proxy.seen, TRANSFERS).at(-1)).toMatchObject({ status: 201, replayed: false });
    expect(posts(proxy.seen, TRANSFERS).at(-1)?.key).not.toBe(lost?.key);
    // The lost transfer went through, and the late one is another: the journal did not join them.
    expect(await transfersOf(client, account.id)).toEqual(["7.00", "7.00", "8.00"]);
    expect(await exists(journalPath)).toBe(false);
  });

  it("keeps two profiles of one config file apart: another user's same request is their own", async () => {
    const configPath = join(folder, "shared.json");
    const journalPath = join(folder, "shared.write-journal.json");
    const allot = (args: string[]) => runCli(args, { env: { ALLOT_CONFIG: configPath } });
    for (const name of ["ann", "bob"]) {
      const key = (await server.t.apiKey(await server.t.user())).replace(/^Api-Key /, "");
      const login = await allot(["login", "--api-key", key, "--profile", name, "--url", proxy.url]);
      expect(login.code, login.stderr).toBe(0);
    }
    const create = (profile: string) =>
      allot(["categories", "create", "Food : Coffee", "--profile", profile]);
    const CATEGORIES = /^\/api\/v1\/transaction-categories\/$/;
    proxy.script = ({ method, path }) => (method === "POST" && CATEGORIES.test(path) ? "cut" : "pass");
    expect((await create("ann")).code).toBe(1);
    const [annsEntry] = await journalEntries(journalPath);

    proxy.script = () => "pass";
    const bob = await create("bob");
    expect(bob.stderr).toBe("");
    expect(bob.code).toBe(0);
    expect(posts(proxy.seen, CATEGORIES).at(-1)?.key).not.toBe(annsEntry?.key);
    expect(await journalEntries(journalPath)).toEqual([annsEntry]);

    const ann = await create("ann");
    expect(ann.stderr).toMatch(resumed("POST /v1/transaction-categories/"));
    expect(ann.code).toBe(0);
    expect(posts(proxy.seen, CATEGORIES).at(-1)).toMatchObject({ key: annsEntry?.key, replayed: true });
    expect(await exists(journalPath)).toBe(false);
  });

  it("ignores a corrupt journal with a warning, and the write goes through", async () => {
    const { client, account, journalPath, allot } = await setUp();
    await writeFile(journalPath, "{ half a journ");
    const run = await allot(transfer("5"));
    expect(run.stderr).toBe(
      `warning: ${journalPath} is not a write journal: ignored, and replaced on the next write\n`,
    );
    expect(run.code).toBe(0);
    expect(await transfersOf(client, account.id)).toEqual(["5.00"]);
    expect(await exists(journalPath)).toBe(false);
  });
});
