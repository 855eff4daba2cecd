import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { createClient } from "@allot/sdk/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";
import { runCli } from "../../test/testing/run-cli";
import { useScriptedProxy } from "../../test/testing/scripted-proxy";

// Each test runs the real CLI a few times (a second or more each to start, more on a busy machine).
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const TRANSACTIONS = /^\/api\/v1\/transactions\/\?/;

/*
 * `allot transactions list --min-amount/--max-amount` sends the range to the API (amount_min,
 * amount_max), so `--limit` pages through matching rows only; a proxy shows what went on the wire.
 */
describe.each(testEngines())("allot transactions list's amount range, on the server (%s)", (engine) => {
  const server = useCliServer(engine);
  const proxy = useScriptedProxy(() => server.baseUrl);
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "allot-cli-amount-"));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("asks the API for the range and reads one page of matching rows, exact to the cent", async () => {
    const user = await server.t.user();
    const apiKey = (await server.t.apiKey(user)).replace(/^Api-Key /, "");
    const client = createClient({ baseUrl: server.baseUrl, auth: { apiKey } });
    const bank = await server.bank();
    const account = await client.call(bankAccountRoutes.create, {
      name: "Checking",
      bank: bank.id,
      posted_balance: "5000.00",
      available_balance: "5000.00",
    });
    // Newest first: the two in range are the oldest, behind three that are not.
    const amounts = ["-50.00", "-100.00", "-100.01", "-49.99", "2500.00"];
    for (const [day, amount] of amounts.entries())
      await client.call(transactionRoutes.create, {
        bank_account: account.id,
        amount,
        transaction_date: `2026-01-1${day}`,
        transaction_type: amount.startsWith("-") ? "signature_purchase" : "ach",
        raw_description: `ROW ${amount}`,
      });
    const env = { ALLOT_API_KEY: apiKey, ALLOT_URL: proxy.url, ALLOT_CONFIG: join(folder, "config.json") };
    const list = async (...args: string[]) => {
      proxy.seen.length = 0;
      const run = await runCli(["transactions", "list", ...args, "--json"], { env });
      const sent = proxy.seen.filter((request) => TRANSACTIONS.test(request.path));
      return { run, queries: sent.map((request) => new URL(request.path, "http://x").searchParams) };
    };

    const { run, queries } = await list("--min-amount", "-100", "--max-amount", "-50", "--limit", "2");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.json<{ amount: string }[]>().map((row) => row.amount)).toEqual(["-100.00", "-50.00"]);
    expect(queries).toHaveLength(1);
    expect(Object.fromEntries(queries[0] ?? [])).toMatchObject({
      amount_min: "-100",
      amount_max: "-50",
      page_size: "2",
    });

    // Inclusive to the cent: -50.00 is in, -49.99 is not; the API's order is kept.
    const sorted = await list("--max-amount", "-50.00", "--ordering", "amount");
    expect(sorted.run.json<{ amount: string }[]>().map((row) => row.amount)).toEqual([
      "-100.01",
      "-100.00",
      "-50.00",
    ]);
    expect(sorted.queries.map((query) => query.get("amount_max"))).toEqual(["-50.00"]);

    const swapped = await list("--min-amount", "-50", "--max-amount", "-100");
    expect(swapped.run.code).not.toBe(0);
    expect(swapped.run.stderr).toContain("amount_max");
    expect(swapped.run.stderr).toContain("Must not be below amount_min.");
  });
});
