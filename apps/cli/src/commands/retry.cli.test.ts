import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";
import { runCli } from "../../test/testing/run-cli";
import { useScriptedProxy } from "../../test/testing/scripted-proxy";

/**
 * A throttled API, seen from the real CLI: a proxy in front of the real server answers the first
 * request for the budgets list with 429 and `Retry-After: 1`, then lets everything through. The
 * command must wait, retry and succeed.
 */
describe.each(testEngines())("the CLI under a 429 (%s)", (engine) => {
  const server = useCliServer(engine);
  const proxy = useScriptedProxy(() => server.baseUrl);

  it("waits for Retry-After, retries the request and prints the list", async () => {
    let throttled = false;
    proxy.script = ({ path }) => {
      if (throttled || !path.startsWith("/api/v1/budgets/")) return "pass";
      throttled = true;
      const body = JSON.stringify({ detail: "Request was throttled.", code: "throttled" });
      return { status: 429, headers: { "retry-after": "1" }, body };
    };
    const user = await server.apiKeyUser();
    const bank = await server.bank();
    await user.client.bankAccounts.create({ name: "Checking", bank: bank.id });
    const key = (await server.t.apiKey(user.user)).replace(/^Api-Key /, "");

    const started = Date.now();
    const run = await runCli(["budgets", "list", "--json"], {
      env: { ALLOT_API_KEY: key, ALLOT_URL: proxy.url, ALLOT_CONFIG: `/tmp/allot-retry-${Date.now()}.json` },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<{ name: string }[]>().map((budget) => budget.name)).toEqual(["Unallocated"]);
    // --json: stderr is kept for the JSON of an error, so the wait goes unsaid.
    expect(run.stderr).toBe("");
    const budgetCalls = proxy.seen.filter((call) => call.path.startsWith("/api/v1/budgets/"));
    expect(budgetCalls.map((call) => call.status)).toEqual([429, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  }, 300_000);

  it("says on stderr what it waits for, once a wait, and prints the table on stdout", async () => {
    let throttles = 2;
    proxy.script = ({ path }) => {
      if (throttles === 0 || !path.startsWith("/api/v1/budgets/")) return "pass";
      throttles -= 1;
      const body = JSON.stringify({ detail: "Request was throttled.", code: "throttled" });
      return { status: 429, headers: { "retry-after": throttles === 1 ? "2" : "1" }, body };
    };
    const user = await server.apiKeyUser();
    const bank = await server.bank();
    await user.client.bankAccounts.create({ name: "Checking", bank: bank.id });
    const key = (await server.t.apiKey(user.user)).replace(/^Api-Key /, "");

    const run = await runCli(["budgets", "list"], {
      env: { ALLOT_API_KEY: key, ALLOT_URL: proxy.url, ALLOT_CONFIG: `/tmp/allot-retry-${Date.now()}.json` },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(
      "Rate limited by the server: retrying in 2 s\nRate limited by the server: retrying in 1 s\n",
    );
    expect(run.stdout).toMatch(/^NAME\s+TYPE\s+BALANCE.*\nUnallocated\s+goal\s+0\.00/);
    const budgetCalls = proxy.seen.filter((call) => call.path.startsWith("/api/v1/budgets/"));
    expect(budgetCalls.map((call) => call.status)).toEqual([429, 429, 200]);
  }, 300_000);
});
