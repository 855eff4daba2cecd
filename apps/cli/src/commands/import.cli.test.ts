import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { useTestApp } from "@allot/api/test/testing/test-app";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { type Client, createClient } from "@allot/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../test/testing/run-cli";

// Each test runs the real CLI several times (about a second each to start, more on a busy machine).
const SLOW = { timeout: 240_000 };
const FIXTURES = fileURLToPath(new URL("../../test/fixtures/", import.meta.url));
const fixture = (name: string) => join(FIXTURES, name);
const CHASE_MAP = "date=Date,amount=Amount,description=Description,balance=Balance";

interface ImportJson {
  dry_run: boolean;
  rows: number;
  syncs: number;
  inserted_posted: number;
  skipped_posted: number;
  inserted_pending: number;
  deleted_pending: number;
  balance_checked: boolean;
  balance_note: string | null;
  balance_mismatch: string | null;
  posting_order_mismatches: string[];
  details: { sent: number; applied: number; warnings: unknown[] } | { to_send: number } | null;
  transactions?: { line: number; action: string; amount: string }[];
}

describe.each(testEngines())("allot import against a running API (%s)", (engine) => {
  const t = useTestApp(engine);
  let baseUrl: string;
  let folder: string;
  let counter = 0;

  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    folder = await mkdtemp(join(tmpdir(), "allot-cli-import-"));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  /** A user with an API key, an empty account of their own, and a config file for the CLI. */
  async function setUp() {
    counter += 1;
    const user = await t.user();
    const key = (await t.apiKey(user)).replace(/^Api-Key /, "");
    const bank = await createBank(internalContext(t.db, "cli"), {
      name: `Import Bank ${counter} ${Date.now()}`,
      currency: "USD",
    });
    const client = createClient({ baseUrl, auth: { apiKey: key } });
    const account = await client.bankAccounts.create({
      name: "Checking",
      bank: bank.id,
      posted_balance: "0.00",
      available_balance: "0.00",
    });
    const configPath = join(folder, `config-${counter}.json`);
    const env = { ALLOT_API_KEY: key, ALLOT_BASE_URL: baseUrl, ALLOT_CONFIG: configPath };
    const allot = (args: string[], extraEnv: Record<string, string | undefined> = {}) =>
      runCli(["import", ...args, "--account", account.id], { env: { ...env, ...extraEnv } });
    const importJson = async (args: string[]) => {
      const run = await allot([...args, "--json"]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      return run.json<ImportJson>();
    };
    return { user, key, client, account, configPath, allot, importJson };
  }

  const listed = async (client: Client, accountId: string) => {
    const rows: {
      amount: string;
      raw_description: string;
      pending: boolean;
      merchant_name: string | null;
      category_full_name: string | null;
    }[] = [];
    for await (const row of client.paginate(transactionRoutes.list, {
      bank_account: accountId,
      page_size: 500,
    }))
      rows.push(row);
    return rows;
  };
  const balanceOf = async (client: Client, id: string) =>
    (await client.bankAccounts.get({ id })).available_balance;

  it(
    "imports an OFX 1.x file newest first with its balance checked; the same file again inserts nothing",
    SLOW,
    async () => {
      const { client, account, importJson } = await setUp();
      const first = await importJson(["ofx", fixture("checking-1x.ofx")]);
      expect(first).toMatchObject({
        dry_run: false,
        rows: 6,
        syncs: 1,
        inserted_posted: 6,
        skipped_posted: 0,
        balance_checked: true,
        balance_mismatch: null,
      });
      const rows = await listed(client, account.id);
      expect(rows.map((r) => [r.amount, r.raw_description])).toEqual([
        ["-89.99", "AT&T WIRELESS AUTOPAY"],
        ["-120.00", "CHECK 1042"],
        ["-4.50", "BLUE BOTTLE COFFEE"],
        ["-4.50", "BLUE BOTTLE COFFEE"],
        ["-45.17", "SAFEWAY #1234 OAKLAND CA"],
        ["2500.00", "ACME CORP PAYROLL"],
      ]);
      expect(await balanceOf(client, account.id)).toBe("2235.84");

      const again = await importJson(["ofx", fixture("checking-1x.ofx")]);
      expect(again).toMatchObject({
        inserted_posted: 0,
        skipped_posted: 6,
        balance_checked: true,
        balance_mismatch: null,
      });
      expect(await listed(client, account.id)).toHaveLength(6);
    },
  );

  it("imports OFX 2.x XML and QFX; people get a summary", SLOW, async () => {
    const xml = await setUp();
    expect(await xml.importJson(["ofx", fixture("checking-2x.ofx")])).toMatchObject({
      inserted_posted: 3,
      balance_mismatch: null,
    });
    expect(await balanceOf(xml.client, xml.account.id)).toBe("751.07");
    // An older statement: its balance is not the account's today, so it is not compared.
    expect(await xml.importJson(["ofx", fixture("checking-1x.ofx")])).toMatchObject({
      inserted_posted: 6,
      balance_checked: false,
      balance_note:
        "not checked: the account has rows posted through 2024-04-19, after this file's last day (2024-03-08)",
      balance_mismatch: null,
    });

    const qfx = await setUp();
    const run = await qfx.allot(["ofx", fixture("card.qfx")]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^inserted +4 posted, 0 pending$/m);
    expect(run.stdout).toMatch(/^balance +matches the file's$/m);
    expect(run.stdout).toMatch(/^posted through +2024-05-30$/m);
    expect((await listed(qfx.client, qfx.account.id)).map((r) => r.amount)).toEqual([
      "-2.50",
      "300.00",
      "-61.02",
      "-23.40",
    ]);
    expect(await qfx.importJson(["ofx", fixture("card.qfx"), "--no-balance-check"])).toMatchObject({
      skipped_posted: 4,
      balance_checked: false,
      balance_note: "not checked (--no-balance-check)",
    });
  });

  it("a dry run shows each row's fate and changes nothing", SLOW, async () => {
    const { client, account, importJson, allot } = await setUp();
    const dry = await importJson(["ofx", fixture("checking-1x.ofx"), "--dry-run"]);
    expect(dry).toMatchObject({
      dry_run: true,
      inserted_posted: 6,
      skipped_posted: 0,
      balance_checked: true,
      balance_mismatch: null,
    });
    expect(dry.transactions?.map((r) => [r.line, r.action])).toEqual([
      [76, "insert"],
      [69, "insert"],
      [62, "insert"],
      [55, "insert"],
      [47, "insert"],
      [39, "insert"],
    ]);
    expect(await listed(client, account.id)).toEqual([]);
    expect(await balanceOf(client, account.id)).toBe("0.00");

    await importJson(["ofx", fixture("checking-1x.ofx")]);
    const plain = await allot(["ofx", fixture("checking-1x.ofx"), "--dry-run"]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("Dry run: nothing was changed.");
    expect(plain.stdout).toContain("skip     line 76     2024-03-08        -89.99  AT&T WIRELESS AUTOPAY");
    expect(plain.stdout).toMatch(/^would be skipped +6 already imported$/m);
    expect(await listed(client, account.id)).toHaveLength(6);
  });

  it("a bad file exits 2 (usage) naming its lines, and nothing is sent", SLOW, async () => {
    const { client, account, allot } = await setUp();
    const bad = join(folder, `bad-${counter}.csv`);
    await writeFile(
      bad,
      "Date,Amount,Description\n2024-01-01,1.00,fine\n2024-01-02,twelve,bad amount\n2024-13-01,1.00,bad date\n",
    );
    const run = await allot(["csv", bad, "--map", "date=Date,amount=Amount,description=Description"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("2 problems, nothing was sent:");
    expect(run.stderr).toContain("line 3: 'twelve' is not an amount");
    expect(run.stderr).toContain("line 4: '2024-13-01' is not a date in the format YYYY-MM-DD");

    const json = await allot(["ofx", fixture("checking-1x.ofx"), "--ofx-account", "999", "--json"]);
    expect(json.code).toBe(2);
    expect(json.errorJson()).toMatchObject({
      code: "invalid_file",
      problems: [{ line: null, message: expect.stringContaining("no statement for account '999'") }],
    });
    expect(await listed(client, account.id)).toEqual([]);
  });

  it(
    "takes the account by name (any case), and names the candidates of an unknown or shared one",
    SLOW,
    async () => {
      const { key, client, account, configPath } = await setUp();
      const env = { ALLOT_API_KEY: key, ALLOT_BASE_URL: baseUrl, ALLOT_CONFIG: configPath };
      const importInto = (name: string, ...more: string[]) =>
        runCli(["import", "ofx", fixture("card.qfx"), "--account", name, ...more], { env });

      const byName = await importInto("checking", "--json");
      expect(byName.stderr).toBe("");
      expect(byName.code).toBe(0);
      expect(byName.json()).toMatchObject({ account: account.id, inserted_posted: 4 });
      expect(await listed(client, account.id)).toHaveLength(4);

      const unknown = await importInto("Savings");
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toBe("error: You have no account named 'Savings'. Your accounts: Checking.\n");

      // Two accounts whose names differ in case only: the exact spelling picks one, any other is ambiguous.
      const other = await client.bankAccounts.create({ name: "CHECKING", bank: account.bank });
      const shared = await importInto("checking", "--dry-run", "--json");
      expect(shared.code).toBe(2);
      expect(shared.errorJson()).toEqual({
        code: "ambiguous_account",
        detail: expect.stringMatching(
          /^Several of your accounts are named 'checking': pass one's id instead — /,
        ),
      });
      expect(shared.errorJson<{ detail: string }>().detail).toContain(`${account.id} (Checking)`);
      expect(shared.errorJson<{ detail: string }>().detail).toContain(`${other.id} (CHECKING)`);
      const exact = await importInto("CHECKING", "--dry-run", "--json");
      expect(exact.code, exact.stderr).toBe(0);
      expect(exact.json()).toMatchObject({ account: other.id, dry_run: true });
    },
  );

  it("authenticates with --api-key, and refuses without a key or login", SLOW, async () => {
    const { key, allot } = await setUp();
    const withFlag = await allot(["ofx", fixture("card.qfx"), "--api-key", key, "--json"], {
      ALLOT_API_KEY: undefined,
    });
    expect(withFlag.code).toBe(0);
    expect(withFlag.json<ImportJson>().inserted_posted).toBe(4);

    const none = await allot(["ofx", fixture("card.qfx")], { ALLOT_API_KEY: undefined });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`error: Not logged in to ${baseUrl}`);
    const wrong = await allot(["ofx", fixture("card.qfx"), "--json"], { ALLOT_API_KEY: "allot_not_a_key" });
    expect(wrong.code).toBe(1);
    expect(wrong.errorJson()).toMatchObject({ detail: expect.any(String) });
  });

  it(
    "saves a CSV mapping with --save-mapping and reuses it with --mapping; options override it",
    SLOW,
    async () => {
      const { client, account, configPath, importJson } = await setUp();
      const first = await importJson([
        "csv",
        fixture("checking.csv"),
        "--map",
        CHASE_MAP,
        "--date-format",
        "MM/DD/YYYY",
        "--save-mapping",
        "chase",
      ]);
      expect(first).toMatchObject({
        inserted_posted: 5,
        balance_checked: true,
        balance_mismatch: null,
        posting_order_mismatches: [],
      });
      expect(JSON.parse(await readFile(configPath, "utf8"))).toEqual({
        profiles: {},
        import_profiles: { chase: { map: CHASE_MAP, date_format: "MM/DD/YYYY" } },
      });
      expect((await listed(client, account.id)).map((r) => r.raw_description)).toEqual([
        "TRADER JOES #552, SAN FRANCISCO",
        "ONLINE TRANSFER FROM SAVINGS",
        "NETFLIX.COM 866-579-7172",
        "CITY OF OAKLAND PARKING",
        "PAYROLL ACME CORP",
      ]);

      const again = await importJson(["csv", fixture("checking.csv"), "--mapping", "chase"]);
      expect(again).toMatchObject({ inserted_posted: 0, skipped_posted: 5 });

      const giro = await setUp();
      await giro.importJson([
        "csv",
        fixture("girokonto.csv"),
        "--skip-lines",
        "2",
        "--decimal",
        ",",
        "--date-format",
        "DD.MM.YYYY",
        "--map",
        "date=Buchungstag,description=Empfänger+Verwendungszweck,debit=Soll,credit=Haben",
        "--save-mapping",
        "giro",
      ]);
      const reused = await giro.importJson([
        "csv",
        fixture("girokonto.csv"),
        "--mapping",
        "giro",
        "--dry-run",
      ]);
      expect(reused).toMatchObject({
        inserted_posted: 0,
        skipped_posted: 4,
        balance_checked: false,
        balance_note: "not checked: the file gives no balance",
      });
      expect(await balanceOf(giro.client, giro.account.id)).toBe("2308.55");
    },
  );

  it("pushes a scrape file, then the details of the rows that need them", SLOW, async () => {
    const { client, account, importJson } = await setUp();
    const first = await importJson(["scrape", fixture("scrape.json")]);
    expect(first).toMatchObject({
      inserted_posted: 3,
      inserted_pending: 1,
      balance_checked: true,
      balance_mismatch: null,
      posting_order_mismatches: [],
    });
    expect(first.details).toEqual({
      sent: 2,
      applied: 2,
      skipped_has_details: 0,
      skipped_pending: 0,
      not_found: 0,
      warnings: [],
    });
    const rows = await listed(client, account.id);
    expect(rows.map((r) => [r.pending, r.amount, r.merchant_name, r.category_full_name])).toEqual([
      [true, "-23.99", null, null],
      [false, "-76.20", "Whole Foods Market", "Food & Drink : Groceries"],
      [false, "-48.46", "Shell", null],
      [false, "1297.00", null, null],
    ]);

    // Again: the pending row is replaced, the posted ones are matched, and only the row without details is asked for.
    const again = await importJson(["scrape", fixture("scrape.json")]);
    expect(again).toMatchObject({
      inserted_posted: 0,
      skipped_posted: 3,
      deleted_pending: 1,
      inserted_pending: 1,
      balance_mismatch: null,
    });
    expect(again.details).toEqual({
      sent: 0,
      applied: 0,
      skipped_has_details: 0,
      skipped_pending: 0,
      not_found: 0,
      warnings: [],
    });
    expect(await listed(client, account.id)).toHaveLength(4);
  });

  it("sends a large CSV in several syncs, oldest first, and a re-run inserts nothing", SLOW, async () => {
    const { client, account, importJson } = await setUp();
    // 12,000 rows over 400 days, the same coffee several times a day: a split between two syncs
    // must not turn the second sync's coffees into duplicates of the first's.
    const lines = ["Date,Amount,Description,Balance"];
    let balance = 0;
    const body: string[] = [];
    for (let i = 0; i < 12_000; i++) {
      const date = new Date(Date.UTC(2022, 0, 1 + Math.floor(i / 30))).toISOString().slice(0, 10);
      const cents = i % 3 === 0 ? -450 : i % 3 === 1 ? -1299 : 2000;
      balance += cents;
      body.push(
        `${date},${(cents / 100).toFixed(2)},${i % 3 === 0 ? "COFFEE" : i % 3 === 1 ? `SHOP ${i % 7}` : "REFUND"},${(balance / 100).toFixed(2)}`,
      );
    }
    const file = join(folder, "large.csv");
    await writeFile(file, [...lines, ...body].join("\n"));
    const first = await importJson(["csv", file, "--map", CHASE_MAP]);
    expect(first).toMatchObject({
      rows: 12_000,
      syncs: 3,
      inserted_posted: 12_000,
      skipped_posted: 0,
      balance_checked: true,
      balance_mismatch: null,
      posting_order_mismatches: [],
    });
    expect(await balanceOf(client, account.id)).toBe((balance / 100).toFixed(2));

    const again = await importJson(["csv", file, "--map", CHASE_MAP]);
    expect(again).toMatchObject({ inserted_posted: 0, skipped_posted: 12_000, balance_mismatch: null });
  });
});
