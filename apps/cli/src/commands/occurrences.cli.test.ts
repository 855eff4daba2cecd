import { budgetRoutes } from "@allot/contract/budgets/routes";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";

// Each test runs the real CLI several times: one to three seconds each, far more on a busy machine.
const SLOW = { timeout: 600_000 };

interface OccurrenceJson {
  id: string;
  budget: string;
  kind: string;
  scheduled_date: string;
  status: string;
}

describe.each(testEngines())("allot occurrences against a running API (%s)", (engine) => {
  const server = useCliServer(engine);

  /** A user with two accounts; the first has budgets Holiday and Rent with four occurrences, the second one. */
  async function seeded() {
    const bank = await server.bank("Occurrence Bank");
    const person = await server.apiKeyUser();
    const { client } = person;
    const checking = await client.bankAccounts.create({ name: "Checking", bank: bank.id });
    const other = await client.bankAccounts.create({ name: "Other", bank: bank.id });
    const budget = (accountId: string, name: string) =>
      client.call(budgetRoutes.create, {
        name,
        bank_account: accountId,
        budget_type: "G",
        funding_type: "F",
        target_balance: "500",
        funding_amount: "50",
      });
    const holiday = await budget(checking.id, "Holiday");
    const rent = await budget(checking.id, "Rent");
    const car = await budget(other.id, "Car");
    // The engine writes occurrences; here they are seeded straight into the table.
    const rows = await server.t.db
      .insert(fundingOccurrences)
      .values([
        {
          bankAccountId: checking.id,
          budgetId: holiday.id,
          kind: "fund",
          scheduledDate: "2026-01-10",
          amount: "50",
        },
        {
          bankAccountId: checking.id,
          budgetId: rent.id,
          kind: "recur",
          scheduledDate: "2026-01-05",
          amount: "50",
          status: "COMPLETE",
          completedAt: new Date("2026-01-05T12:00:00Z"),
        },
        {
          bankAccountId: checking.id,
          budgetId: rent.id,
          kind: "fund",
          scheduledDate: "2026-02-01",
          amount: "50",
          status: "PARTIAL",
        },
        {
          bankAccountId: checking.id,
          budgetId: rent.id,
          kind: "fund",
          scheduledDate: "2026-03-01",
          amount: "50",
          status: "SKIPPED",
        },
        {
          bankAccountId: other.id,
          budgetId: car.id,
          kind: "fund",
          scheduledDate: "2026-01-01",
          amount: "50",
        },
      ])
      .returning();
    return { ...person, checking, holiday, rent, ids: rows.map((row) => row.id) };
  }

  it(
    "lists an account's occurrences with budget names, filtered by budget name, kind, statuses and dates",
    SLOW,
    async () => {
      const { allot, rent, ids } = await seeded();

      const table = await allot(["occurrences", "--account", "checking"]);
      expect(table.stderr).toBe("");
      expect(table.code).toBe(0);
      expect(
        table.stdout
          .trimEnd()
          .split("\n")
          .map((line) => line.split(/ {2,}/).slice(0, 5)),
      ).toEqual([
        ["DATE", "BUDGET", "KIND", "STATUS", "COMPLETED AT"],
        ["2026-01-05", "Rent", "recur", "COMPLETE", "2026-01-05T12:00:00.000Z"],
        ["2026-01-10", "Holiday", "fund", "PENDING", "-"],
        ["2026-02-01", "Rent", "fund", "PARTIAL", "-"],
        ["2026-03-01", "Rent", "fund", "SKIPPED", "-"],
      ]);

      const filtered = await allot([
        "occurrences",
        "--account",
        "Checking",
        "--budget",
        "rent",
        "--kind",
        "fund",
        "--status",
        "partial",
        "--status",
        "SKIPPED,COMPLETE",
        "--from",
        "2026-01-01",
        "--to",
        "2026-02-28",
        "--json",
      ]);
      expect(filtered.stderr).toBe("");
      expect(filtered.json<OccurrenceJson[]>()).toEqual([
        expect.objectContaining({
          id: ids[2],
          budget: rent.id,
          kind: "fund",
          scheduled_date: "2026-02-01",
          status: "PARTIAL",
        }),
      ]);

      const csv = await allot(["occurrences", "--account", "Checking", "--status", "PENDING", "--csv"]);
      expect(csv.stdout).toBe(
        `Date,Budget,Kind,Status,Completed at,Id\n2026-01-10,Holiday,fund,PENDING,,${ids[0]}\n`,
      );
    },
  );

  it("refuses bad filters with exit 2 and a clear message", SLOW, async () => {
    const { allot } = await seeded();
    const badDate = await allot(["occurrences", "--account", "Checking", "--from", "2026-02-30"]);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toBe(
      "error: --from must be a day as YYYY-MM-DD (e.g. 2026-01-31), not '2026-02-30'.\n",
    );

    const badKind = await allot(["occurrences", "--kind", "weekly"]);
    expect(badKind.code).toBe(2);
    expect(badKind.stderr).toContain("Allowed choices are fund, recur");

    const needsAccount = await allot(["occurrences", "--budget", "Rent", "--json"]);
    expect(needsAccount.code).toBe(2);
    expect(needsAccount.errorJson()).toEqual({
      detail: "Pass --account NAME (your accounts: Checking, Other), or set a default bank account.",
      code: "account_required",
    });

    const unknownBudget = await allot(["occurrences", "--account", "Checking", "--budget", "Boat"]);
    expect(unknownBudget.code).toBe(2);
    expect(unknownBudget.stderr).toContain("The account has no budget named 'Boat'. Its budgets: ");
  });
});
