import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, type DatabaseOptions } from "@allot/db/create-database";
import { databaseUrl, testEngines, withAdminConnection } from "@allot/db/testing/test-databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../test/testing/run-cli";

// Each run starts a process that loads the stack and opens the database: seconds, not milliseconds.
const SLOW = { timeout: 120_000 };

describe.each(testEngines())("allot admin on a fresh %s database", (engine) => {
  let folder: string;
  let env: Record<string, string>;
  let database: DatabaseOptions;
  let dropDatabase = async () => {};

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "allot-cli-admin-"));
    if (engine === "pglite") {
      env = { DATA_DIR: join(folder, "data") };
      database = { dataDir: join(folder, "data", "pglite") };
      return;
    }
    // An empty database of its own (not the migrated template): the CLI must migrate it.
    const serverUrl = process.env.DATABASE_URL as string;
    const name = `allot_cli_${randomBytes(6).toString("hex")}`;
    await withAdminConnection(serverUrl, (sql) => sql.unsafe(`create database ${name}`));
    dropDatabase = () =>
      withAdminConnection(serverUrl, (sql) =>
        sql.unsafe(`drop database if exists ${name} with (force)`),
      ).then(() => {});
    env = { DATABASE_URL: databaseUrl(serverUrl, name), DATA_DIR: join(folder, "unused") };
    database = { url: databaseUrl(serverUrl, name) };
  });
  afterAll(async () => {
    await dropDatabase();
    await rm(folder, { recursive: true, force: true });
  });

  it("migrate --json applies the migrations", SLOW, async () => {
    const run = await runCli(["admin", "migrate", "--json"], { env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({ migrated: true, engine });
    expect(existsSync(join(folder, "data", "pglite"))).toBe(engine === "pglite");
    const again = await runCli(["admin", "migrate"], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Migrations applied/);
  });

  it("create-user --json prints the new user; the row holds a hash, not the password", SLOW, async () => {
    const run = await runCli(
      [
        "admin",
        "create-user",
        "--email",
        "Ann.Admin@Example.com",
        "--password",
        "correct horse battery",
        "--name",
        "Ann",
        "--staff",
        "--json",
      ],
      { env },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({
      username: "ann.admin@example.com",
      email: "Ann.Admin@Example.com",
      is_staff: true,
      timezone: "America/Los_Angeles",
    });

    const handle = await createDatabase(database);
    try {
      const row = await handle.db.query.users.findFirst({
        where: (user, { eq }) => eq(user.username, "ann.admin@example.com"),
      });
      expect(row).toMatchObject({ name: "Ann", isStaff: true, isActive: true });
      expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    } finally {
      await handle.close();
    }
  });

  it("create-user reads the password from stdin when --password is left out", SLOW, async () => {
    const run = await runCli(["admin", "create-user", "--email", "piped@example.com", "--json"], {
      env,
      stdin: "correct horse battery\n",
    });
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({
      username: "piped@example.com",
      email: "piped@example.com",
      is_staff: false,
      timezone: "America/Los_Angeles",
    });
  });

  it("create-user --timezone takes an IANA zone, stored in its canonical spelling", SLOW, async () => {
    const createIn = (email: string, zone: string) =>
      runCli(
        [
          "admin",
          "create-user",
          "--email",
          email,
          "--password",
          "correct horse battery",
          "--timezone",
          zone,
          "--json",
        ],
        { env },
      );
    const run = await createIn("zoned@example.com", "europe/berlin");
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ username: "zoned@example.com", timezone: "Europe/Berlin" });

    const bad = await createIn("nowhere@example.com", "+02:00");
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.errorJson()).toEqual({ timezone: ["'+02:00' is not a valid IANA time zone."] });
  });

  it(
    "refuses a duplicate email and invalid input with the API's error bodies on stderr, exit 1",
    SLOW,
    async () => {
      const duplicate = await runCli(
        ["admin", "create-user", "--email", "ANN.ADMIN@example.com", "--password", "another one", "--json"],
        { env },
      );
      expect(duplicate.code).toBe(1);
      expect(duplicate.stdout).toBe("");
      expect(duplicate.errorJson()).toEqual({
        detail: "A user with email 'ANN.ADMIN@example.com' already exists.",
        code: "user_exists",
      });

      const invalid = await runCli(["admin", "create-user", "--email", "not-an-email", "--password", ""], {
        env,
      });
      expect(invalid.code).toBe(1);
      expect(invalid.stdout).toBe("");
      expect(invalid.stderr).toBe(
        "error: invalid input\n  email: Enter a valid email address.\n  password: This field may not be blank.\n",
      );
    },
  );

  it("create-bank --json prints the bank; a bad currency is a 400-style field error", SLOW, async () => {
    const run = await runCli(
      [
        "admin",
        "create-bank",
        "--name",
        " First Bank ",
        "--currency",
        "eur",
        "--routing-number",
        "021000021",
        "--json",
      ],
      { env },
    );
    expect(run.code).toBe(0);
    const bank = run.json<Record<string, unknown>>();
    expect(bank).toEqual({
      id: expect.any(String),
      name: "First Bank",
      routing_number: "021000021",
      default_currency: "EUR",
    });
    expect(bank.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const plain = await runCli(["admin", "create-bank", "--name", "Second", "--currency", "USD"], { env });
    expect(plain.code).toBe(0);
    // For people: one aligned `key  value` line per field.
    expect(plain.stdout.trimEnd().split("\n")).toEqual([
      expect.stringMatching(/^id {16}[0-9a-f-]{36}$/),
      "name              Second",
      "routing_number    -",
      "default_currency  USD",
    ]);

    const bad = await runCli(["admin", "create-bank", "--name", "Third", "--currency", "XYZ", "--json"], {
      env,
    });
    expect(bad.code).toBe(1);
    expect(bad.errorJson()).toEqual({ currency: ["'XYZ' is not an ISO 4217 currency code."] });
  });

  it("tells what is missing when a required option is left out", SLOW, async () => {
    const run = await runCli(["admin", "create-bank", "--name", "No currency"], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("required option '--currency <code>' not specified");
  });
});

describe("allot admin's default data folder", () => {
  it("is .data where the command was typed (INIT_CWD, as pnpm sets it), not apps/cli", SLOW, async () => {
    const folder = await mkdtemp(join(tmpdir(), "allot-cli-root-"));
    try {
      const run = await runCli(["admin", "migrate", "--json"], { env: { INIT_CWD: folder } });
      expect(run.code).toBe(0);
      expect(existsSync(join(folder, ".data", "pglite", "PG_VERSION"))).toBe(true);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
