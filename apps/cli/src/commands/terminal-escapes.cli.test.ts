import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";

// Each run starts the real CLI: one to three seconds, far more on a busy machine.
const SLOW = { timeout: 600_000 };

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** What a co-owner could have stored before names refused it: retitle the terminal, then clear it. */
const HOSTILE_NAME = "\u001b]0;pwned\u0007Checking\u001b[2J\u001b[H";
const SHOWN_NAME = "\\x1b]0;pwned\\x07Checking\\x1b[2J\\x1b[H";
/** A bank's text is kept as sent: it reaches the terminal escaped too. */
const BANK_TEXT = "POS\u001b[31m CAFE\r\n\u009b2J";
const SHOWN_BANK_TEXT = "POS\\x1b[31m CAFE\\r\\n\\x9b2J";

describe.each(testEngines())("allot prints the server's texts escaped (%s)", (engine) => {
  const server = useCliServer(engine);

  it(
    "shows control characters of names already stored and of bank texts visibly, in tables, records, sentences and errors; --json keeps them",
    SLOW,
    async () => {
      const { client, allot } = await server.apiKeyUser();
      const bank = await server.bank();
      const account = await client.call(bankAccountRoutes.create, {
        name: "Checking",
        bank: bank.id,
        posted_balance: "10.00",
        available_balance: "10.00",
      });
      // Stored before the contract refused it: only the database can still hold such a name.
      await server.t.db
        .update(bankAccounts)
        .set({ name: HOSTILE_NAME })
        .where(eq(bankAccounts.id, account.id));
      const budget = await client.call(budgetRoutes.create, {
        bank_account: account.id,
        name: "Trip",
        budget_type: "G",
        funding_type: "F",
        target_balance: "5",
        funding_amount: "1",
      });
      await server.t.db.update(budgets).set({ name: HOSTILE_NAME }).where(eq(budgets.id, budget.id));
      await client.call(transactionRoutes.create, {
        bank_account: account.id,
        amount: "-1.00",
        transaction_date: "2026-01-10",
        transaction_type: "signature_purchase",
        raw_description: BANK_TEXT,
      });

      const runs = {
        table: await allot(["accounts"]),
        csv: await allot(["accounts", "--csv"]),
        record: await allot(["accounts", "show", account.id]),
        transactions: await allot(["transactions", "list", "--account", account.id]),
        sentence: await allot(["budgets", "delete", budget.id, "--yes"]),
        error: await allot(["accounts", "show", `${HOSTILE_NAME}-gone`]),
      };
      for (const [what, run] of Object.entries(runs)) {
        expect(run.stdout, what).not.toMatch(RAW_CONTROL);
        expect(run.stderr, what).not.toMatch(RAW_CONTROL);
      }
      expect(runs.table.stdout).toContain(SHOWN_NAME);
      expect(runs.csv.stdout).toContain(SHOWN_NAME);
      expect(runs.record.stdout.split("\n").map((line) => line.split(/ {2,}/))).toContainEqual([
        "name",
        SHOWN_NAME,
      ]);
      expect(runs.transactions.stdout).toContain(SHOWN_BANK_TEXT);
      expect(runs.sentence.stdout).toBe(`Deleted '${SHOWN_NAME}'.\n`);
      expect(runs.error.code).not.toBe(0);
      expect(runs.error.stderr).toContain("\\x1b]0;pwned\\x07Checking");

      // Scripts get the exact texts back from --json.
      const second = await client.call(bankAccountRoutes.create, {
        name: "Savings",
        bank: bank.id,
        posted_balance: "1.00",
        available_balance: "1.00",
      });
      await server.t.db
        .update(bankAccounts)
        .set({ name: HOSTILE_NAME })
        .where(eq(bankAccounts.id, second.id));
      const json = await allot(["accounts", "show", second.id, "--json"]);
      expect(json.stdout).not.toMatch(RAW_CONTROL);
      expect(json.json<{ name: string }>().name).toBe(HOSTILE_NAME);
    },
  );
});
