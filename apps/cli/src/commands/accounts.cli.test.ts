import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";

// Each test runs the real CLI several times: one to three seconds each, far more on a busy machine.
const SLOW = { timeout: 600_000 };

interface AccountJson {
  id: string;
  name: string;
  bank: string;
  account_type: string;
  account_number: string | null;
  available_balance: string;
  posted_balance: string;
  auto_funding_enabled: boolean;
}

describe.each(testEngines())("allot accounts against a running API (%s)", (engine) => {
  const server = useCliServer(engine);

  it(
    "creates accounts with the bank by name or id, lists them as a table, CSV or JSON, shows and updates one by name",
    SLOW,
    async () => {
      const { allot } = await server.apiKeyUser();
      const bank = await server.bank("First Bank");

      const checking = await allot([
        "accounts",
        "create",
        "--name",
        "Checking",
        "--bank",
        bank.name.toUpperCase(),
        "--balance",
        "100.50",
        "--auto-funding",
        "on",
        "--json",
      ]);
      expect(checking.stderr).toBe("");
      expect(checking.code).toBe(0);
      expect(checking.json<AccountJson>()).toMatchObject({
        name: "Checking",
        bank: bank.id,
        account_type: "C",
        posted_balance: "100.50",
        available_balance: "100.50",
      });

      const savings = await allot([
        "accounts",
        "create",
        "--name",
        "Savings",
        "--bank",
        bank.id,
        "--type",
        "savings",
        "--available-balance",
        "-20",
        "--auto-funding",
        "off",
      ]);
      expect(savings.code).toBe(0);
      expect(savings.stdout).toMatch(/^available balance +-20\.00$/m);
      expect(savings.stdout).toMatch(/^auto-funding +off$/m);
      expect(savings.stderr).toContain("Created 'Savings'. Next: add budgets with `allot budgets create");

      const table = await allot(["accounts"]);
      expect(table.code).toBe(0);
      const lines = table.stdout.trimEnd().split("\n");
      expect(lines[0]).toMatch(/^NAME +TYPE +CURRENCY +AVAILABLE +POSTED +AUTO-FUNDING +LAST IMPORT +ID$/);
      expect(lines.slice(1).map((line) => line.split(/ {2,}/).slice(0, 6))).toEqual([
        ["Checking", "checking", "USD", "100.50", "100.50", "on"],
        ["Savings", "savings", "USD", "-20.00", "0.00", "off"],
      ]);
      // Amounts are right-aligned: both end in the same column.
      const available = lines.map((line) => line.indexOf("AVAILABLE") + "AVAILABLE".length);
      expect(lines[1]?.slice(0, available[0]).endsWith("100.50")).toBe(true);
      expect(lines[2]?.slice(0, available[0]).endsWith("-20.00")).toBe(true);

      const csv = await allot(["accounts", "list", "--type", "savings", "--csv"]);
      expect(csv.code).toBe(0);
      const [header, row, ...rest] = csv.stdout.trimEnd().split("\n");
      expect(header).toBe("Name,Type,Currency,Available,Posted,Auto-funding,Last import,Id");
      expect(row).toMatch(/^Savings,savings,USD,-20\.00,0\.00,off,,[0-9a-f-]{36}$/);
      expect(rest).toEqual([]);

      const shown = await allot(["accounts", "show", "  SAVINGS ", "--json"]);
      expect(shown.code).toBe(0);
      expect(shown.json<AccountJson>()).toMatchObject({ name: "Savings", account_type: "S" });

      const updated = await allot([
        "accounts",
        "update",
        "checking",
        "--name",
        "Main",
        "--account-number",
        "0042",
        "--auto-funding",
        "off",
        "--json",
      ]);
      expect(updated.stderr).toBe("");
      expect(updated.json<AccountJson>()).toMatchObject({
        id: checking.json<AccountJson>().id,
        name: "Main",
        account_number: "0042",
        auto_funding_enabled: false,
      });
      const cleared = await allot(["accounts", "update", "Main", "--no-account-number"]);
      expect(cleared.code).toBe(0);
      expect(cleared.stdout).toMatch(/^account number +-$/m);
    },
  );

  it("refuses bad arguments with exit 2 and says what to pass", SLOW, async () => {
    const { allot } = await server.apiKeyUser();
    const bank = await server.bank("Second Bank");

    const unknownBank = await allot(["accounts", "create", "--name", "X", "--bank", "No Such Bank"]);
    expect(unknownBank.code).toBe(2);
    expect(unknownBank.stderr).toContain("error: No bank is named 'No Such Bank'. Banks: ");
    expect(unknownBank.stderr).toContain(bank.name);

    const badAmount = await allot([
      "accounts",
      "create",
      "--name",
      "X",
      "--bank",
      bank.id,
      "--balance",
      "12,50",
    ]);
    expect(badAmount.code).toBe(2);
    expect(badAmount.stderr).toBe("error: --balance must be an amount like 1250.00 or -20.5, not '12,50'.\n");

    const missingBank = await allot(["accounts", "create", "--name", "X"]);
    expect(missingBank.code).toBe(2);
    expect(missingBank.stderr).toContain("required option '--bank <bank>' not specified");

    const badChoice = await allot(["accounts", "update", "X", "--auto-funding", "maybe"]);
    expect(badChoice.code).toBe(2);
    expect(badChoice.stderr).toContain("Allowed choices are on, off");

    const unknownAccount = await allot(["accounts", "show", "Nope", "--json"]);
    expect(unknownAccount.code).toBe(2);
    expect(unknownAccount.errorJson()).toEqual({
      detail: "You have no account named 'Nope'. Your accounts: none.",
      code: "unknown_account",
    });

    const nothing = await allot(["accounts", "update", "Nope"]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("Nothing to change: pass --name, --account-number");
  });

  it(
    "deletes only with --yes and an interactive login; an API key gets the API's 403 and a hint",
    SLOW,
    async () => {
      const bank = await server.bank("Third Bank");
      const keyUser = await server.apiKeyUser();
      const account = await keyUser.client.bankAccounts.create({ name: "Old card", bank: bank.id });

      const unconfirmed = await keyUser.allot(["accounts", "delete", "old card"]);
      expect(unconfirmed.code).toBe(2);
      expect(unconfirmed.stderr).toBe(
        "error: Delete account 'Old card' with all its budgets, transactions and allocations: this cannot be undone, so pass --yes to confirm.\n",
      );

      const byKey = await keyUser.allot(["accounts", "delete", "Old card", "--yes"]);
      expect(byKey.code).toBe(1);
      expect(byKey.stderr).toContain("error: This endpoint needs an interactive login");
      expect(byKey.stderr).toContain("hint: API keys cannot do this. Run `allot login");
      expect((await keyUser.client.bankAccounts.get({ id: account.id })).name).toBe("Old card");

      const person = await server.loggedInUser();
      const own = await person.client.bankAccounts.create({ name: "Joint", bank: bank.id });
      const deleted = await person.allot(["accounts", "delete", "joint", "--yes", "--json"]);
      expect(deleted.stderr).toBe("");
      expect(deleted.json()).toEqual({ id: own.id, name: "Joint", deleted: true });
      const listed = await person.allot(["accounts"]);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toBe("");
      expect(listed.stderr).toBe("No bank accounts yet: create one with `allot accounts create`.\n");
    },
  );
});
