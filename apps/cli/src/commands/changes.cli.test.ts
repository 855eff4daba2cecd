import type { Change } from "@allot/contract/changes/change";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";
import { expireChangeCursors } from "../../test/testing/expire-change-cursors";

// Each test runs the real CLI several times: one to three seconds each, far more on a busy machine.
const SLOW = { timeout: 600_000 };

interface FeedJson {
  cursor: string;
  changes: Change[];
}

const summary = (changes: Change[]) =>
  changes.map((change) => `${change.type}${change.deleted ? " deleted" : ""}`).sort();

describe.each(testEngines())("allot changes against a running API (%s)", (engine) => {
  const server = useCliServer(engine);

  /**
   * A user with one account, "Our Household", holding a budget (Groceries) beside Unallocated, a
   * purchase and a transfer: one object of every kind but funding occurrences.
   */
  async function setUp() {
    const person = await server.apiKeyUser();
    const { client } = person;
    const bank = await server.bank("Changes Bank");
    const account = await client.bankAccounts.create({
      name: "Our Household",
      bank: bank.id,
      posted_balance: "1000.00",
      available_balance: "1000.00",
    });
    const unallocated = account.unallocated_budget as string;
    const groceries = await client.budgets.create({
      name: "Groceries",
      bank_account: account.id,
      budget_type: "G",
      funding_type: "F",
      target_balance: "500",
      funding_amount: "50",
    });
    const purchase = await client.transactions.create({
      bank_account: account.id,
      amount: "-12.50",
      transaction_date: "2026-03-10T12:00:00Z",
      transaction_type: "signature_purchase",
      raw_description: "COFFEE SHOP",
    });
    const transfer = await client.internalTransactions.create({
      bank_account: account.id,
      amount: "25.00",
      src_budget: unallocated,
      dst_budget: groceries.id,
    });
    const allot = (...args: string[]) => person.allot(["changes", ...args]);
    /** A --json run that must succeed. */
    const json = async (...args: string[]) => {
      const run = await allot(...args, "--json");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      return run.json<FeedJson>();
    };
    return { client, account, unallocated, groceries, purchase, transfer, allot, json };
  }

  it(
    "prints every page's changes and the cursor with --json; --since that cursor shows only what came after",
    SLOW,
    async () => {
      const { client, account, groceries, json } = await setUp();
      const full = await json("our household");
      expect(Object.keys(full)).toEqual(["cursor", "changes"]);
      expect(summary(full.changes)).toEqual([
        "allocation",
        "bank_account",
        "budget",
        "budget",
        "internal_transaction",
        "transaction",
      ]);
      expect(full.changes.find((change) => change.id === groceries.id)?.object).toEqual(
        await client.budgets.get({ id: groceries.id }),
      );
      // Two a page: every page followed, the same changes in the same order and the same cursor.
      expect(await json(account.id, "--page-size", "2")).toEqual(full);

      await client.budgets.update({ id: groceries.id, memo: "weekly shop" });
      const delta = await json("Our Household", "--since", full.cursor);
      expect(delta.changes).toEqual([
        {
          type: "budget",
          id: groceries.id,
          deleted: false,
          object: expect.objectContaining({ memo: "weekly shop" }),
        },
      ]);
      expect(delta.cursor).not.toBe(full.cursor);
      // Nothing since: no changes, and the cursor stays.
      expect(await json("Our Household", "--since", delta.cursor)).toEqual({
        cursor: delta.cursor,
        changes: [],
      });
    },
  );

  it(
    "prints a table of type, id and what each object is (or deleted), then the command for next time",
    SLOW,
    async () => {
      const { client, account, unallocated, groceries, purchase, transfer, allot, json } = await setUp();
      const rowsOf = (stdout: string) => {
        const lines = stdout.trimEnd().split("\n");
        expect(lines[0]).toMatch(/^TYPE\s+ID\s+WHAT$/);
        return lines.slice(1).map((line) => line.split(/\s{2,}/));
      };
      const balance = async (id: string) => (await client.budgets.get({ id })).balance;
      const available = (await client.bankAccounts.get({ id: account.id })).available_balance;
      const [allocation] = purchase.allocations;

      const table = await allot("Our Household");
      expect(table.code).toBe(0);
      expect(rowsOf(table.stdout).sort()).toEqual(
        [
          ["bank_account", account.id, `Our Household, available ${available} USD`],
          ["budget", unallocated, `Unallocated, balance ${await balance(unallocated)} USD`],
          ["budget", groceries.id, `Groceries, balance ${await balance(groceries.id)} USD`],
          ["transaction", purchase.id, `${purchase.description}, -12.50 USD`],
          ["allocation", allocation?.id, "-12.50 USD to Unallocated"],
          ["internal_transaction", transfer.id, "25.00 USD from Unallocated to Groceries"],
        ].sort(),
      );
      // The cursor a person copies is the one a script gets.
      const { cursor } = await json("Our Household");
      expect(table.stderr).toBe(
        `Next time, for what changes after this: allot changes 'Our Household' --since ${cursor}\n`,
      );

      await client.transactions.delete({ id: purchase.id });
      const after = await allot(account.id, "--since", cursor);
      expect(after.code).toBe(0);
      const rows = rowsOf(after.stdout);
      expect(rows).toContainEqual(["transaction", purchase.id, "deleted"]);
      expect(rows).toContainEqual(["allocation", allocation?.id, "deleted"]);
      expect(after.stderr).toMatch(
        new RegExp(
          `^Next time, for what changes after this: allot changes ${account.id} --since [\\w-]+\\n$`,
        ),
      );

      const quiet = await allot(account.id, "--since", (await json(account.id, "--since", cursor)).cursor);
      expect(quiet.code).toBe(0);
      expect(quiet.stdout).toBe("");
      expect(quiet.stderr).toContain("Nothing changed since that cursor.");
    },
  );

  it(
    "tells the user to run again without --since when the cursor expired (410), and refuses bad input",
    SLOW,
    async () => {
      const { client, account, groceries, allot, json } = await setUp();
      const { cursor } = await json("Our Household");
      await client.budgets.update({ id: groceries.id, memo: "after the cursor" });
      await expireChangeCursors(server.t.db, account.id);

      const expired = await allot("Our Household", "--since", cursor);
      expect(expired.code).toBe(1);
      expect(expired.stdout).toBe("");
      expect(expired.stderr).toContain("error: Deletions after this cursor are no longer kept");
      expect(expired.stderr).toContain(
        "hint: that cursor is too old. Run `allot changes 'Our Household'` again without --since",
      );
      const expiredJson = await allot("Our Household", "--since", cursor, "--json");
      expect(expiredJson.code).toBe(1);
      expect(expiredJson.errorJson()).toEqual({ code: "cursor_expired", detail: expect.any(String) });
      // Run again without --since, as told: everything, and a cursor that works.
      const again = await json("Our Household");
      expect((await json("Our Household", "--since", again.cursor)).changes).toEqual([]);

      const malformed = await allot("Our Household", "--since", "not-a-cursor");
      expect(malformed.code).toBe(1);
      expect(malformed.stderr).toContain("since: Not a cursor of this account's changes");
      const badSize = await allot("--page-size", "0");
      expect(badSize.code).toBe(2);
      const stranger = await setUp();
      const notMine = await allot(stranger.account.id, "--json");
      expect(notMine.code).toBe(1);
      expect(notMine.errorJson()).toMatchObject({ code: "not_found" });
    },
  );
});
