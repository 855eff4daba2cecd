import { budgetRoutes } from "@allot/contract/budgets/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { endUserSessions } from "@allot/domain/auth/end-user-sessions";
import { localDate } from "@allot/domain/calendar/local-days";
import dayjs from "dayjs";
import { describe, expect, it, vi } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";

// Each test runs the real CLI several times (a second or more each to start on a busy machine).
vi.setConfig({ testTimeout: 900_000, hookTimeout: 300_000 });

// What a newcomer following the README meets in the first hour (issue 32): the CLI says what
// happened and what to run, where it used to stay silent.
describe.each(testEngines())("allot guides a newcomer (%s)", (engine) => {
  const server = useCliServer(engine);

  const SCHEDULED = ["--type", "capped", "--target", "600", "--amount", "150", "--schedule", "FREQ=WEEKLY"];

  it("turns auto-funding on with --auto-funding alone, and warns once when a schedule will not run", async () => {
    const { allot } = await server.apiKeyUser();
    const bank = await server.bank();
    const create = (name: string, ...flags: string[]) =>
      allot(["accounts", "create", "--name", name, "--bank", bank.id, "--balance", "100", ...flags]);

    const off = await create("Checking");
    expect(off.code).toBe(0);
    expect(off.stderr).toContain(
      "note: auto-funding is off for 'Checking': its budgets are funded on their schedules only by `allot fund run`. Turn it on with `allot accounts update \"Checking\" --auto-funding on`.\n",
    );
    const auto = await create("Auto", "--auto-funding", "--json");
    expect(auto.stderr).toBe("");
    expect(auto.json()).toMatchObject({ name: "Auto", auto_funding_enabled: true });
    // Today's spellings keep working.
    expect((await create("On", "--auto-funding", "on", "--json")).json()).toMatchObject({
      auto_funding_enabled: true,
    });
    expect((await create("Off", "--auto-funding", "off", "--json")).json()).toMatchObject({
      auto_funding_enabled: false,
    });

    const warning =
      "auto-funding is off for 'Checking': its budgets are funded on their schedules only by `allot fund run`. Turn it on with `allot accounts update \"Checking\" --auto-funding on`.";
    const scheduled = await allot(["budgets", "create", "Groceries", ...SCHEDULED, "--account", "Checking"]);
    expect(scheduled.code).toBe(0);
    expect(scheduled.stderr).toBe(`warning: ${warning}\n`);
    const json = await allot(["budgets", "create", "Rent", ...SCHEDULED, "--account", "Checking", "--json"]);
    expect(json.stderr).toBe("");
    expect(json.json()).toMatchObject({ name: "Rent", warnings: [warning] });
    // No schedule, or an account that funds by itself: nothing to say, the JSON as the API's.
    const unscheduled = await allot([
      "budgets",
      "create",
      "Car",
      "--type",
      "goal",
      "--target",
      "900",
      "--amount",
      "10",
      "--account",
      "Checking",
    ]);
    expect(unscheduled.stderr).toBe("");
    const funded = await allot([
      "budgets",
      "create",
      "Groceries",
      ...SCHEDULED,
      "--account",
      "Auto",
      "--json",
    ]);
    expect(funded.stderr).toBe("");
    expect(funded.json()).not.toHaveProperty("warnings");
  });

  it("warns when a transfer or a split leaves a budget below zero, on stderr or in the JSON", async () => {
    const { allot, client } = await server.apiKeyUser();
    const bank = await server.bank();
    const account = await client.bankAccounts.create({
      name: "Checking",
      bank: bank.id,
      posted_balance: "2300.00",
      available_balance: "2300.00",
    });
    await allot(["budgets", "create", "Groceries", "--type", "goal", "--target", "900", "--amount", "10"]);
    const overdraft = (budget: string, balance: string) =>
      `'${budget}' is overdrawn: its balance is now ${balance} USD. Move money into it with \`allot transfer AMOUNT --from BUDGET --to '${budget}'\`.`;

    const moved = await allot(["transfer", "10000", "--from", "Unallocated", "--to", "Groceries"]);
    expect(moved.code).toBe(0);
    expect(moved.stdout).toMatch(/Unallocated\s+-7,?700\.00/);
    expect(moved.stderr).toBe(`warning: ${overdraft("Unallocated", "-7700.00")}\n`);

    const json = await allot(["transfer", "0.01", "--from", "Unallocated", "--to", "Groceries", "--json"]);
    expect(json.code).toBe(0);
    expect(json.stderr).toBe("");
    expect(json.json()).toMatchObject({
      src_budget_balance: "-7700.01",
      warnings: [overdraft("Unallocated", "-7700.01")],
    });
    // Back above zero: no warning, the answer as the API's.
    const back = await allot(["transfer", "9000", "--from", "Groceries", "--to", "Unallocated", "--json"]);
    expect(back.stderr).toBe("");
    expect(back.json()).not.toHaveProperty("warnings");

    // Groceries now holds 1000.01: a 1,200.00 purchase put on it overdraws it by 199.99.
    const bought = await client.transactions.create({
      bank_account: account.id,
      amount: "-1200.00",
      transaction_date: "2026-01-10",
      transaction_type: "signature_purchase",
      raw_description: "SAFEWAY #1234",
    });
    const split = await allot(["transactions", "split", bought.id, "--into", "groceries=1200"]);
    expect(split.code).toBe(0);
    expect(split.stderr).toBe(`warning: ${overdraft("Groceries", "-199.99")}\n`);
    const splitJson = await allot(["transactions", "split", bought.id, "--into", "groceries=1200", "--json"]);
    expect(splitJson.code).toBe(0);
    expect(splitJson.json<unknown[]>()).toHaveLength(1);
    expect(JSON.parse(splitJson.stderr)).toEqual({ warnings: [overdraft("Groceries", "-199.99")] });
    const within = await allot(["transactions", "split", bought.id, "--into", "groceries=1000"]);
    expect(within.code).toBe(0);
    expect(within.stderr).toBe("");
  });

  it("says to log in again, with the profile's email, when the login's session has ended", async () => {
    const { allot, user } = await server.loggedInUser();
    expect((await allot(["accounts", "list"])).code).toBe(0);
    // What a password reset does to every open session of the user.
    await server.t.db.transaction((tx) => endUserSessions(tx, user.id, new Date()));

    const refused = await allot(["accounts", "list"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      [
        "error: Token is invalid: its session has ended.",
        `hint: your login is no longer valid (a password reset or change ends it): run \`allot login --email ${user.email}\` to log in again.`,
        "",
      ].join("\n"),
    );
    // Scripts get the API's body alone.
    const json = await allot(["accounts", "list", "--json"]);
    expect(json.errorJson()).toEqual({
      detail: "Token is invalid: its session has ended.",
      code: "token_not_valid",
    });
  });

  it("says what a future --as-of funds, and funds ahead only when confirmed", async () => {
    const { allot, client } = await server.apiKeyUser();
    const bank = await server.bank();
    const account = await client.bankAccounts.create({
      name: "Checking",
      bank: bank.id,
      posted_balance: "1000.00",
      available_balance: "1000.00",
    });
    const groceries = await client.budgets.create({
      name: "Groceries",
      bank_account: account.id,
      budget_type: "G",
      funding_type: "F",
      target_balance: "5000",
      funding_amount: "10",
      funding_schedule: "FREQ=DAILY",
    });
    const today = localDate(new Date(), account.timezone);
    const ahead = dayjs(today).add(3, "day").format("YYYY-MM-DD");
    const said = `warning: --as-of ${ahead} is 3 days after today (${today}) for 'Checking': this funds every schedule of the account up to ${ahead} now, as if those days had come.\n`;
    const balance = async () => (await client.call(budgetRoutes.get, { id: groceries.id })).balance;

    // A script (no terminal) without --yes: refused, nothing funded.
    const refused = await allot(["fund", "run", "--as-of", ahead]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `${said}error: Fund 'Checking' 3 days ahead, through ${ahead}: money moves ahead of time, so pass --yes to confirm.\n`,
    );
    expect(await balance()).toBe("0.00");

    const confirmed = await allot(["fund", "run", "--as-of", ahead, "--yes"]);
    expect(confirmed.code).toBe(0);
    expect(confirmed.stderr).toBe(said);
    expect(await balance()).not.toBe("0.00");

    // Today needs no confirmation.
    const now = await allot(["fund", "run", "--as-of", today, "--json"]);
    expect(now.stderr).toBe("");
    expect(now.code).toBe(0);
  });
});
