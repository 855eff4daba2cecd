import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestApp } from "@allot/api/test/testing/test-app";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { createClient } from "@allot/sdk/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli } from "../../test/testing/run-cli";

// Each test runs the real CLI many times (a second or more each to start, far more on a busy
// machine), and the server's database can be slow to open then too.
vi.setConfig({ testTimeout: 900_000, hookTimeout: 300_000 });

describe.each(testEngines())("allot fund against a running API (%s)", (engine) => {
  const t = useTestApp(engine);
  let baseUrl: string;
  let folder: string;

  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    folder = await mkdtemp(join(tmpdir(), "allot-cli-fund-"));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("shows the schedules and their dates, runs the funding due today, then has nothing to do", async () => {
    const user = await t.user();
    const key = (await t.apiKey(user)).replace(/^Api-Key /, "");
    const bank = await createBank(internalContext(t.db, "cli"), {
      name: `Fund Bank ${Date.now()}`,
      currency: "USD",
    });
    const client = createClient({ baseUrl, auth: { apiKey: key } });
    const account = await client.bankAccounts.create({
      name: "Checking",
      bank: bank.id,
      posted_balance: "1000.00",
      available_balance: "1000.00",
    });
    const capped = { budget_type: "C", funding_type: "F", bank_account: account.id } as const;
    await client.budgets.create({
      ...capped,
      name: "Groceries",
      target_balance: "600",
      funding_amount: "150",
      funding_schedule: "FREQ=DAILY",
    });
    await client.budgets.create({
      ...capped,
      name: "Coffee",
      target_balance: "60",
      funding_amount: "5",
      funding_schedule: "FREQ=DAILY",
      paused: true,
    });
    const env = { ALLOT_API_KEY: key, ALLOT_BASE_URL: baseUrl, ALLOT_CONFIG: join(folder, "config.json") };
    const allot = (args: string[]) => runCli(args, { env });

    const summary = await allot(["fund", "summary"]);
    expect(summary.stderr).toBe("");
    expect(summary.code).toBe(0);
    expect(summary.stdout).toMatch(
      /^SCHEDULE +NEXT DATE +BUDGETS +AMOUNT +CURRENCY\n.*FREQ=DAILY +\d{4}-\d{2}-\d{2} +1 +150\.00 +USD\n\nTotal of the next fundings: 150\.00 USD\n$/,
    );
    const summaryJson = (await allot(["fund", "summary", "--json"])).json<{ total_amount: string }>();
    expect(summaryJson).toMatchObject({
      total_amount: "150.00",
      currency: "USD",
      schedules: [{ budget_count: 1 }],
    });

    const dates = await allot(["fund", "dates", "--days", "2", "--json"]);
    expect(dates.code).toBe(0);
    expect(dates.json<{ dates: string[] }>().dates).toHaveLength(3);
    const window = await allot([
      "fund",
      "dates",
      "--after",
      "2099-01-01",
      "--before",
      "2099-01-03",
      "--account",
      "checking",
    ]);
    expect(window.stdout).toBe("DATE        DAY\n2099-01-02  Fri\n2099-01-03  Sat\n");
    const both = await allot(["fund", "dates", "--days", "3", "--after", "2099-01-01"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe("error: Choose --days or --after with --before, not both.\n");

    const run = await allot(["fund", "run"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Transfers +1$/m);
    expect(run.stdout).toMatch(/^Skipped \(paused\) +Coffee$/m);
    const groceries = await allot(["budgets", "show", "Groceries", "--json"]);
    expect(groceries.json()).toMatchObject({ balance: "150.00" });

    const again = await allot(["fund", "run", "--json"]);
    expect(again.json()).toMatchObject({ transfers: 0, occurrences_completed: 0 });
    const badDate = await allot(["fund", "run", "--as-of", "tomorrow"]);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain("--as-of must be a date, YYYY-MM-DD, not 'tomorrow'.");
  });
});
