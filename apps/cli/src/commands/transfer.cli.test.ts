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

describe.each(testEngines())("allot transfer against a running API (%s)", (engine) => {
  const t = useTestApp(engine);
  let baseUrl: string;
  let folder: string;

  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    folder = await mkdtemp(join(tmpdir(), "allot-cli-transfer-"));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("moves money between budgets named in any case or by id, and shows both balances", async () => {
    const user = await t.user();
    const key = (await t.apiKey(user)).replace(/^Api-Key /, "");
    const bank = await createBank(internalContext(t.db, "cli"), {
      name: `Transfer Bank ${Date.now()}`,
      currency: "USD",
    });
    const client = createClient({ baseUrl, auth: { apiKey: key } });
    const checking = await client.bankAccounts.create({
      name: "Checking",
      bank: bank.id,
      posted_balance: "1000.00",
      available_balance: "1000.00",
    });
    // A second account: --account picks by name, and budgets resolve within it only.
    const joint = await client.bankAccounts.create({
      name: "Joint",
      bank: bank.id,
      posted_balance: "300.00",
      available_balance: "300.00",
    });
    const budget = {
      budget_type: "G",
      funding_type: "F",
      target_balance: "500",
      funding_amount: "10",
    } as const;
    const groceries = await client.budgets.create({
      ...budget,
      name: "Groceries",
      bank_account: checking.id,
    });
    await client.budgets.create({ ...budget, name: "Groceries", bank_account: joint.id });
    const env = { ALLOT_API_KEY: key, ALLOT_BASE_URL: baseUrl, ALLOT_CONFIG: join(folder, "config.json") };
    const allot = (args: string[]) => runCli(args, { env });

    const moved = await allot([
      "transfer",
      "50",
      "--from",
      "Unallocated",
      "--to",
      "groceries",
      "--account",
      "Checking",
    ]);
    expect(moved.stderr).toBe("");
    expect(moved.code).toBe(0);
    expect(moved.stdout).toBe(
      [
        "Moved 50.00 USD from 'Unallocated' to 'Groceries'.",
        "BUDGET       BALANCE",
        "Unallocated   950.00",
        "Groceries      50.00",
        "",
      ].join("\n"),
    );

    const back = await allot([
      "transfer",
      "12.5",
      "--from",
      groceries.id,
      "--to",
      "UNALLOCATED",
      "--account",
      checking.id,
      "--json",
    ]);
    expect(back.code).toBe(0);
    expect(back.json()).toMatchObject({
      bank_account: checking.id,
      amount: "12.50",
      src_budget: groceries.id,
      src_budget_balance: "37.50",
      dst_budget_balance: "962.50",
    });

    const csv = await allot([
      "transfer",
      "25",
      "--from",
      "Unallocated",
      "--to",
      "Groceries",
      "--account",
      "joint",
      "--csv",
    ]);
    expect(csv.stdout).toBe("Budget,Balance\nUnallocated,275.00\nGroceries,25.00\n");

    // Two accounts and no default: the account must be named.
    const which = await allot(["transfer", "5", "--from", "Unallocated", "--to", "Groceries"]);
    expect(which.code).toBe(2);
    expect(which.stderr).toContain("Pass --account NAME (your accounts: ");

    const unknown = await allot([
      "transfer",
      "5",
      "--from",
      "Unallocated",
      "--to",
      "Rent",
      "--account",
      "Joint",
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      "error: The account has no budget named 'Rent'. Its budgets: Groceries, Unallocated.\n",
    );
    const badAmount = await allot(["transfer", "5.555", "--from", "Unallocated", "--to", "Groceries"]);
    expect(badAmount.code).toBe(2);
    expect(badAmount.stderr).toContain("AMOUNT must be a positive amount such as 50 or 12.50, not '5.555'.");
    const missing = await allot(["transfer", "5", "--to", "Groceries"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--from <budget>' not specified");

    // What only the API checks comes back as its refusal: exit 1, the field named.
    const zero = await allot([
      "transfer",
      "0",
      "--from",
      "Groceries",
      "--to",
      "Unallocated",
      "--account",
      "Joint",
    ]);
    expect(zero.code).toBe(1);
    expect(zero.stderr).toBe("error: invalid input\n  amount: Must be greater than zero.\n");
  });
});
