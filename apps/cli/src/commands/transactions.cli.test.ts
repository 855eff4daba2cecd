import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";

// Each test runs the real CLI a few times (one to three seconds each to start on a busy machine).
const SLOW = { timeout: 300_000 };

interface Row {
  id: string;
  amount: string;
  description: string;
  pending: boolean;
  memo: string | null;
  transaction_type: string;
  category_full_name: string | null;
  posted_date: string;
  allocations: { budget: string; amount: string }[];
}

import { useCliServer } from "../../test/testing/cli-server";

describe.each(testEngines())("allot transactions against a running API (%s)", (engine) => {
  const server = useCliServer(engine);

  /**
   * A user with an API key and one account, "Checking", holding Groceries and Rent budgets, an own
   * category and three transactions: a posted debit, a pending debit and a credit.
   */
  async function setUp() {
    const { client, allot: run } = await server.apiKeyUser();
    const bank = await server.bank();
    const account = await client.call(bankAccountRoutes.create, {
      name: "Checking",
      bank: bank.id,
      posted_balance: "3000.00",
      available_balance: "3000.00",
    });
    const budget = (name: string) =>
      client.call(budgetRoutes.create, {
        bank_account: account.id,
        name,
        budget_type: "G",
        funding_type: "F",
        target_balance: "500",
        funding_amount: "50",
      });
    const budgets = { groceries: await budget("Groceries"), rent: await budget("Rent") };
    const category = await client.call(transactionCategoryRoutes.create, { group: "Food", name: "Produce" });
    const transaction = (amount: string, day: string, description: string, pending = false) =>
      client.call(transactionRoutes.create, {
        bank_account: account.id,
        amount,
        transaction_date: day,
        transaction_type: "signature_purchase",
        raw_description: description,
        pending,
      });
    const safeway = await transaction("-100.00", "2026-01-10", "SAFEWAY #1234");
    const coffee = await transaction("-4.50", "2026-01-12", "BLUE BOTTLE COFFEE", true);
    const payroll = await transaction("2500.00", "2026-01-15", "ACME PAYROLL");
    const allot = (...args: string[]) => run(["transactions", ...args]);
    /** A --json run that must succeed. */
    const json = async <T = Row[]>(...args: string[]) => {
      const run = await allot(...args, "--json");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      return run.json<T>();
    };
    return { client, account, budgets, category, safeway, coffee, payroll, allot, json };
  }

  const descriptions = (rows: Row[]) => rows.map((row) => row.description);

  it(
    "lines the columns up after a description in CJK with an emoji, as a terminal shows them",
    SLOW,
    async () => {
      const { client, account, allot } = await setUp();
      await client.call(transactionRoutes.create, {
        bank_account: account.id,
        amount: "-12.00",
        transaction_date: "2026-01-20",
        transaction_type: "signature_purchase",
        raw_description: "寿司 🍣 東京",
      });
      const table = await allot("list");
      expect(table.code, table.stderr).toBe(0);
      const [header = "", ...rows] = table.stdout.trimEnd().split("\n");
      expect(rows[0]).toContain("寿司 🍣 東京");
      // Where each column starts, in terminal columns (a CJK character or an emoji takes two).
      const columnAt = (line: string, text: string) => stringWidth(line.slice(0, line.indexOf(text)));
      const amountEnd = columnAt(header, "AMOUNT") + "AMOUNT".length;
      for (const [row, amount] of rows.map(
        (row, i) => [row, ["-12.00", "2500.00", "-4.50", "-100.00"][i]] as const,
      ))
        expect(columnAt(row, ` ${amount}  `) + 1 + (amount?.length ?? 0), row).toBe(amountEnd);
      const budgetsAt = columnAt(header, "BUDGETS");
      for (const row of rows) expect(columnAt(row, "Unallocated"), row).toBe(budgetsAt);
    },
  );

  it("lists newest first as a table with money columns, and filters by the API's flags", SLOW, async () => {
    const { allot, json } = await setUp();
    const table = await allot("list");
    expect(table.stderr).toBe("");
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+DATE\s+DESCRIPTION\s+AMOUNT\s+CATEGORY\s+BUDGETS\s+PENDING$/);
    expect(lines.slice(1).map((line) => line.split(/\s{2,}/).slice(1))).toEqual([
      ["2026-01-15", "ACME PAYROLL", "2500.00", "-", "Unallocated", "no"],
      ["2026-01-12", "BLUE BOTTLE COFFEE", "-4.50", "-", "Unallocated", "yes"],
      ["2026-01-10", "SAFEWAY #1234", "-100.00", "-", "Unallocated", "no"],
    ]);
    // Amounts right-aligned: every row's amount ends where the heading does.
    const end = (lines[0] ?? "").indexOf("AMOUNT") + "AMOUNT".length;
    for (const line of lines.slice(1)) expect(line[end - 1]).toBe("0");

    expect(
      descriptions(await json("list", "--account", "checking", "--from", "2026-01-11", "--to", "2026-01-12")),
    ).toEqual(["BLUE BOTTLE COFFEE"]);
    expect(descriptions(await json("list", "--pending"))).toEqual(["BLUE BOTTLE COFFEE"]);
    expect(descriptions(await json("list", "--posted", "--ordering", "amount"))).toEqual([
      "SAFEWAY #1234",
      "ACME PAYROLL",
    ]);
    expect(
      descriptions(await json("list", "--min-amount", "-50", "--max-amount", "0", "--search", "blue")),
    ).toEqual(["BLUE BOTTLE COFFEE"]);
    // One row a page: the API applies the amount range, so its first page is the row.
    expect(descriptions(await json("list", "--limit", "1", "--max-amount", "-50"))).toEqual([
      "SAFEWAY #1234",
    ]);
  });

  it(
    "creates with a category by name, lists by that category, and shows one as fields or JSON",
    SLOW,
    async () => {
      const { allot, json } = await setUp();
      const created = await json<Row>(
        "create",
        ...["--amount", "-12.50", "--date", "2026-01-20", "--description", "Farmers market"],
        ...["--category", "produce", "--memo", "apples"],
      );
      expect(created).toMatchObject({
        amount: "-12.50",
        description: "Farmers market",
        transaction_type: "signature_purchase",
        category_full_name: "Food : Produce",
        memo: "apples",
        pending: false,
      });
      expect(descriptions(await json("list", "--category", "food:produce"))).toEqual(["Farmers market"]);

      const shown = await allot("show", created.id.toUpperCase());
      expect(shown.stderr).toBe("");
      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(new RegExp(`^Id\\s+${created.id}$`, "m"));
      expect(shown.stdout).toMatch(/^Date\s+2026-01-20$/m);
      expect(shown.stdout).toMatch(/^Amount\s+-12\.50$/m);
      expect(shown.stdout).toMatch(/^Category\s+Food : Produce$/m);
      expect(shown.stdout).toMatch(/^Budgets\s+Unallocated$/m);
      expect((await json<Row>("show", created.id)).id).toBe(created.id);

      const unknown = await allot(
        "create",
        "--amount",
        "5",
        "--date",
        "2026-01-20",
        "--description",
        "x",
        "--category",
        "Nope",
      );
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain("No category is named 'Nope'");
    },
  );

  it(
    "splits by budget names, shows each budget's running balance, lists by budget, and undoes the split",
    SLOW,
    async () => {
      const { allot, json, safeway, budgets, client } = await setUp();
      const split = await allot("split", safeway.id, "--into", "groceries=60", "RENT=20.5");
      // The split goes through; the two budgets it empties below zero are named (decision 0055).
      expect(split.stderr.split("\n").sort()).toEqual([
        "",
        "warning: 'Groceries' is overdrawn: its balance is now -60.00 USD. Move money into it with `allot transfer AMOUNT --from BUDGET --to 'Groceries'`.",
        "warning: 'Rent' is overdrawn: its balance is now -20.50 USD. Move money into it with `allot transfer AMOUNT --from BUDGET --to 'Rent'`.",
      ]);
      expect(split.code).toBe(0);
      const [header, ...body] = split.stdout
        .trimEnd()
        .split("\n")
        .map((line) => line.trim().split(/\s{2,}/));
      expect(header).toEqual(["BUDGET", "AMOUNT", "RUNNING BALANCE"]);
      expect(body.sort()).toEqual([
        ["Groceries", "-60.00", "-60.00"],
        ["Rent", "-20.50", "-20.50"],
        ["Unallocated", "-19.50", expect.stringMatching(/^-?\d+\.\d{2}$/)],
      ]);
      const after = await client.call(transactionRoutes.get, { id: safeway.id });
      const byBudget = Object.fromEntries(after.allocations.map((a) => [a.budget, a.amount]));
      expect(byBudget[budgets.groceries.id]).toBe("-60.00");
      expect(byBudget[budgets.rent.id]).toBe("-20.50");

      const csv = await allot("list", "--budget", "Groceries", "--csv");
      expect(csv.code).toBe(0);
      expect(csv.stdout.split("\n")[0]).toBe("Id,Date,Description,Amount,Category,Budgets,Pending");
      const [, line, ...rest] = csv.stdout.trimEnd().split("\n");
      expect(rest).toEqual([]);
      expect(line).toMatch(
        new RegExp(`^${safeway.id},2026-01-10,SAFEWAY #1234,-100.00,,".*Groceries -60.00.*",no$`),
      );
      expect(line).toContain("Rent -20.50");

      const undone = await json<{ budget: string; amount: string }[]>("split", safeway.id, "--into");
      expect(undone.map((a) => a.amount)).toEqual(["-100.00"]);
      expect(undone[0]?.budget).not.toBe(budgets.groceries.id);

      const badPair = await allot("split", safeway.id, "--into", "groceries=60", "rent=abc");
      expect(badPair.code).toBe(2);
      expect(badPair.stderr).toContain("'rent=abc': the amount must be positive");
      const unknownBudget = await allot("split", safeway.id, "--into", "Holidays=5");
      expect(unknownBudget.code).toBe(2);
      expect(unknownBudget.stderr).toContain("The account has no budget named 'Holidays'");
      const tooMuch = await allot("split", safeway.id, "--into", "groceries=150");
      expect(tooMuch.code).toBe(1);
      expect(tooMuch.stderr).toContain("more than the transaction's 100.00");
    },
  );

  it("edits the mutable fields, resolves a pending one, and deletes only with --yes", SLOW, async () => {
    const { allot, json, safeway, coffee, client } = await setUp();
    const edited = await json<Row>(
      "edit",
      safeway.id,
      "--description",
      "Weekly shop",
      "--memo",
      "",
      "--type",
      "pin_purchase",
    );
    expect(edited).toMatchObject({
      description: "Weekly shop",
      memo: null,
      transaction_type: "pin_purchase",
    });
    const nothing = await allot("edit", safeway.id);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("Nothing to change: pass --description, --memo or --type");

    const resolved = await allot("resolve", coffee.id, "--posted-date", "2026-01-13", "--amount", "-5.00");
    expect(resolved.stderr).toBe("");
    expect(resolved.code).toBe(0);
    expect(resolved.stdout).toMatch(/^Posted\s+2026-01-13$/m);
    expect(resolved.stdout).toMatch(/^Pending\s+no$/m);
    expect((await client.call(transactionRoutes.get, { id: coffee.id })).amount).toBe("-5.00");
    const badDate = await allot("resolve", coffee.id, "--posted-date", "2026-02-30");
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain("--posted-date must be a date like 2026-01-31");

    const refused = await allot("delete", safeway.id);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("pass --yes");
    expect((await client.call(transactionRoutes.get, { id: safeway.id })).id).toBe(safeway.id);
    expect(await json<unknown>("delete", safeway.id, "--yes")).toEqual({ id: safeway.id, deleted: true });
    const gone = await allot("show", safeway.id);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^error: /);

    const badId = await allot("show", "12345");
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain("'12345' is not a transaction id: run `allot transactions list`");
  });
});
