import { budgetRoutes } from "@allot/contract/budgets/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it, vi } from "vitest";

// Each test runs the real CLI many times (a second or more each to start, far more on a busy
// machine), and the server's database can be slow to open then too.
vi.setConfig({ testTimeout: 900_000, hookTimeout: 300_000 });

interface BudgetJson {
  id: string;
  name: string;
  budget_type: string;
  funding_type: string;
  balance: string;
  target_balance: string;
  funding_amount: string | null;
  funding_schedule: string;
  target_date: string | null;
  paused: boolean;
  archived: boolean;
  warnings?: string[];
}

import { useCliServer } from "../../test/testing/cli-server";

describe.each(testEngines())("allot budgets against a running API (%s)", (engine) => {
  const server = useCliServer(engine);

  /** A user with an API key and one auto-funding account holding 1000.00 (all of it Unallocated). */
  async function setUp() {
    const { client, allot } = await server.apiKeyUser();
    const bank = await server.bank();
    const account = await client.bankAccounts.create({
      name: "Checking",
      bank: bank.id,
      posted_balance: "1000.00",
      available_balance: "1000.00",
      // Funded by the scheduler, so a schedule given here draws no auto-funding warning.
      auto_funding_enabled: true,
    });
    const allotJson = async <T>(args: string[]) => {
      const run = await allot([...args, "--json"]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      return run.json<T>();
    };
    const budgetsOf = async () => {
      const rows: BudgetJson[] = [];
      for await (const row of client.paginate(budgetRoutes.list, {
        bank_account: account.id,
        page_size: 500,
      }))
        rows.push(row);
      return rows;
    };
    return { client, account, bank, allot, allotJson, budgetsOf };
  }

  it("creates goal, capped and recurring budgets from friendly words, lists and shows them by name", async () => {
    const { allot, allotJson, budgetsOf } = await setUp();
    const vacation = await allotJson<BudgetJson>([
      "budgets",
      "create",
      "Vacation",
      "--type",
      "goal",
      "--target",
      "2000",
      "--target-date",
      "2030-07-01",
      "--schedule",
      "FREQ=MONTHLY;BYMONTHDAY=1",
    ]);
    expect(vacation).toMatchObject({
      name: "Vacation",
      budget_type: "G",
      funding_type: "D",
      target_balance: "2000.00",
      target_date: "2030-07-01",
    });

    // The table a person sees: the budget shown back, field by field.
    const groceries = await allot([
      "budgets",
      "create",
      "Groceries",
      "--type",
      "capped",
      "--target",
      "600",
      "--amount",
      "150",
      "--schedule",
      "FREQ=WEEKLY;BYDAY=FR",
    ]);
    expect(groceries.stderr).toBe("");
    expect(groceries.code).toBe(0);
    expect(groceries.stdout).toMatch(/^Name +Groceries$/m);
    expect(groceries.stdout).toMatch(/^Type +capped$/m);
    expect(groceries.stdout).toMatch(/^Funding +fixed amount$/m);
    expect(groceries.stdout).toMatch(/^Funding amount +150\.00$/m);

    const rent = await allotJson<BudgetJson>([
      "budgets",
      "create",
      "Rent",
      "--type",
      "recurring",
      "--target",
      "1200",
      "--recurrence",
      "FREQ=MONTHLY",
      "--schedule",
      "FREQ=MONTHLY;BYMONTHDAY=1,15",
    ]);
    expect(rent).toMatchObject({ budget_type: "R", funding_type: "D" });
    expect((await budgetsOf()).map((b) => b.name).sort()).toEqual([
      "Groceries",
      "Rent",
      "Rent Fill-up",
      "Unallocated",
      "Vacation",
    ]);

    const table = await allot(["budgets", "list"]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^NAME +TYPE +BALANCE +TARGET +NEXT FUNDING +NEXT AMOUNT +STATE$/);
    expect(lines.find((line) => line.startsWith("Groceries"))).toMatch(
      /^Groceries +capped +0\.00 +600\.00 +\d{4}-\d{2}-\d{2} +150\.00 +active$/,
    );
    expect(lines.find((line) => line.startsWith("Unallocated"))).toMatch(/ 1000\.00 /);

    const goals = await allotJson<BudgetJson[]>([
      "budgets",
      "list",
      "--type",
      "goal",
      "--account",
      "checking",
    ]);
    expect(goals.map((b) => b.name).sort()).toEqual(["Unallocated", "Vacation"]);
    const csv = await allot(["budgets", "list", "--search", "groc", "--csv"]);
    expect(csv.stdout).toMatch(
      /^Name,Type,Balance,Target,Next funding,Next amount,State\nGroceries,capped,0\.00,600\.00,/,
    );

    const shown = await allotJson<BudgetJson>(["budgets", "show", "vacation"]);
    expect(shown.id).toBe(vacation.id);
    const byId = await allot(["budgets", "show", vacation.id]);
    expect(byId.stdout).toMatch(/^Target date +2030-07-01$/m);

    const unknown = await allot(["budgets", "show", "Holidays"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: The account has no budget named 'Holidays'. Its budgets:");
    const badType = await allot(["budgets", "create", "X", "--type", "savings", "--target", "1"]);
    expect(badType.code).toBe(2);
    expect(badType.stderr).toContain("option '--type <type>' argument 'savings' is invalid");
    const badAmount = await allot(["budgets", "create", "X", "--type", "goal", "--target", "ten"]);
    expect(badAmount.code).toBe(2);
    expect(badAmount.stderr).toContain("--target must be an amount such as 250 or 250.00, not 'ten'.");
    // The API's own refusal (a capped budget needs its amount) is exit 1 with the field named.
    const refused = await allot(["budgets", "create", "Fuel", "--type", "capped", "--target", "100"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("funding_amount: A Capped budget needs a funding amount.");
  });

  it("updates, pauses and resumes a budget, printing the API's warnings", async () => {
    const { allot, allotJson } = await setUp();
    await allotJson(["budgets", "create", "Car", "--type", "goal", "--target", "500", "--amount", "25"]);
    const updated = await allotJson<BudgetJson>([
      "budgets",
      "update",
      "car",
      "--name",
      "Car repairs",
      "--target",
      "750.5",
      "--schedule",
      "FREQ=DAILY",
    ]);
    expect(updated).toMatchObject({
      name: "Car repairs",
      target_balance: "750.50",
      funding_schedule: expect.stringContaining("FREQ=DAILY"),
      warnings: [],
    });

    const paused = await allot(["budgets", "pause", "Car repairs"]);
    expect(paused.code).toBe(0);
    expect(paused.stdout).toBe(
      "Paused 'Car repairs': it is not funded until `allot budgets resume 'Car repairs'`.\n",
    );
    const listed = await allot(["budgets", "list", "--paused"]);
    expect(listed.stdout).toMatch(/^Car repairs +goal .* paused$/m);
    expect(listed.stdout).not.toContain("Unallocated");

    const resumed = await allotJson<BudgetJson>(["budgets", "resume", "Car repairs"]);
    expect(resumed).toMatchObject({ paused: false, warnings: [] });

    const nothing = await allot(["budgets", "update", "Car repairs"]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("Nothing to change: pass --name, --target");
  });

  it("archives and deletes only with --yes when there is no terminal", async () => {
    const { allot, allotJson, budgetsOf } = await setUp();
    await allotJson(["budgets", "create", "Old", "--type", "goal", "--target", "10", "--amount", "1"]);
    await allotJson(["budgets", "create", "Typo", "--type", "goal", "--target", "10", "--amount", "1"]);
    await allotJson(["transfer", "40", "--from", "Unallocated", "--to", "Old"]);

    const refused = await allot(["budgets", "archive", "Old"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe("error: No terminal to confirm at: pass --yes to archive 'Old'.\n");
    const refusedDelete = await allot(["budgets", "delete", "Typo", "--json"]);
    expect(refusedDelete.code).toBe(2);
    expect(refusedDelete.errorJson()).toMatchObject({ code: "confirmation_required" });
    expect((await budgetsOf()).filter((b) => b.archived)).toEqual([]);

    const archived = await allot(["budgets", "archive", "Old", "--yes"]);
    expect(archived.stderr).toBe("");
    expect(archived.stdout).toBe("Archived 'Old': its balance of 40.00 moved to Unallocated.\n");
    const deleted = await allotJson<{ id: string; deleted: boolean }>(["budgets", "delete", "typo", "--yes"]);
    expect(deleted.deleted).toBe(true);

    const after = await budgetsOf();
    expect(after.find((b) => b.name === "Old")).toMatchObject({ archived: true, balance: "0.00" });
    expect(after.find((b) => b.name === "Typo")).toBeUndefined();
    expect(after.find((b) => b.name === "Unallocated")?.balance).toBe("1000.00");
    // Archived budgets are listed only when asked for.
    const archivedList = await allotJson<BudgetJson[]>(["budgets", "list", "--archived"]);
    expect(archivedList.map((b) => b.name)).toEqual(["Old"]);
  });

  it("refuses to delete or archive the Unallocated budget before asking anything, --yes or not", async () => {
    const { allot, budgetsOf } = await setUp();
    const refusal = (verb: string) =>
      `error: 'Unallocated' is the account's Unallocated budget, which holds the money no other budget does: it cannot be ${verb}.\n`;
    // Not "pass --yes": that would only lead to the API's refusal.
    const unasked = await allot(["budgets", "delete", "unallocated"]);
    expect(unasked.stderr).toBe(refusal("deleted"));
    expect(unasked.code).toBe(2);
    const confirmed = await allot(["budgets", "delete", "Unallocated", "--yes", "--json"]);
    expect(confirmed.code).toBe(2);
    expect(confirmed.errorJson()).toMatchObject({ code: "unallocated_budget" });
    const byId = (await budgetsOf()).find((b) => b.name === "Unallocated")?.id as string;
    const archived = await allot(["budgets", "archive", byId, "--yes"]);
    expect(archived.stderr).toBe(refusal("archived"));
    expect(archived.code).toBe(2);
    expect(await budgetsOf()).toMatchObject([{ name: "Unallocated", archived: false, balance: "1000.00" }]);
  });
});
