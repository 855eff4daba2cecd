import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { attachmentStoreFor } from "@allot/attachments/attachment-store-for";
import { startS3Server } from "@allot/attachments/testing/s3-server";
import { bucketContents } from "@allot/attachments/testing/test-storage";
import { createDatabase, type DatabaseOptions } from "@allot/db/create-database";
import { attachmentRemovals } from "@allot/db/schema/attachment-removals";
import {
  databaseUrl,
  SNAPSHOT_ENV,
  testEngines,
  withAdminConnection,
} from "@allot/db/testing/test-databases";
import { localDate } from "@allot/domain/calendar/local-days";
import { TEST_SECRETS_KEYS, testVault } from "@allot/domain/testing/test-vault";
import { asUser } from "@allot/domain/testing/use-case-context";
import { createWebhook } from "@allot/domain/webhooks/create-webhook";
import { anAccount, anOwner } from "@allot/scheduler/testing/fixtures";
import { PGlite } from "@electric-sql/pglite";
import { afterEach, describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
// pnpm, tsx and a database opened from scratch: seconds, not milliseconds.
const SLOW = { timeout: 120_000 };

/** `pnpm cron …` from the repository root, as an operator types it, with only the given Allot variables. */
function pnpmCron(args: string[], env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, COREPACK_ENABLE_DOWNLOAD_PROMPT: "0", ...env };
  for (const name of ["DATABASE_URL", "DATA_DIR", "INIT_CWD"]) if (!(name in env)) delete childEnv[name];
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn("pnpm", ["run", "cron", ...args], { cwd: repoRoot, env: childEnv, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function pgliteFromSnapshot(dataDir: string) {
  const snapshot = process.env[SNAPSHOT_ENV] as string;
  return PGlite.create({ dataDir, loadDataDir: new Blob([await readFile(snapshot)]) });
}

describe("pnpm cron, usage errors", () => {
  it("exits 2 on an unknown job or a bad date, before touching a database", SLOW, async () => {
    const env = { DATA_DIR: join(tmpdir(), "allot-cron-never-opened") };
    const unknown = await pnpmCron(["run", "fnud"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/'fnud' is invalid .*Allowed choices are .*fund/);
    expect(unknown.stdout).toBe("");
    const badDate = await pnpmCron(["run", "fund", "--as-of", "2031-02-30"], env);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toMatch(/--as-of .*Must be a date/);
  });
});

/** One or two plain lines naming the variable: no stack, no code. */
function expectPlainFailure(run: { code: number | null; stderr: string }, variable: string) {
  expect(run.code, run.stderr).toBe(1);
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines.length, run.stderr).toBeLessThanOrEqual(2);
  expect(run.stderr).toContain(variable);
  expect(run.stderr).not.toMatch(/function|=>|\bat .*:\d+:\d+/);
  for (const line of lines) expect(line.length, line).toBeLessThan(300);
}

describe("pnpm cron, configuration errors", () => {
  it("names the variable to fix in one or two plain lines, and exits 1", SLOW, async () => {
    const env = { DATA_DIR: join(tmpdir(), "allot-cron-never-opened") };
    const level = await pnpmCron(["--once"], { ...env, LOG_LEVEL: "loud" });
    expectPlainFailure(level, "LOG_LEVEL");
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const unreachable = await pnpmCron(["--once"], {
      DATABASE_URL: `postgres://allot:db-pa55word@127.0.0.1:${closedPort}/allot`,
      SECRETS_KEY: TEST_SECRETS_KEYS.key,
    });
    expectPlainFailure(unreachable, "DATABASE_URL");
    expect(unreachable.stderr).not.toContain("db-pa55word");
  });
});

describe.each(testEngines())("pnpm cron, a real process (%s)", (engine) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A database of the engine's for a cron process: options to open it here, the process's variables. */
  async function cronDatabase() {
    const folder = await mkdtemp(join(tmpdir(), "allot-cron-"));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    // The embedded database: a copy of the run's migrated snapshot, on disk for the process to open.
    if (engine !== "postgres")
      return {
        options: { pglite: await pgliteFromSnapshot(join(folder, "pglite")) } as DatabaseOptions,
        env: { DATA_DIR: folder, SECRETS_KEY: TEST_SECRETS_KEYS.key } as Record<string, string>,
      };
    const serverUrl = process.env.DATABASE_URL as string;
    const name = `allot_cron_${randomBytes(4).toString("hex")}`;
    await withAdminConnection(serverUrl, (sql) => sql.unsafe(`create database ${name}`));
    cleanups.push(() =>
      withAdminConnection(serverUrl, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`)),
    );
    return {
      options: { url: databaseUrl(serverUrl, name) } as DatabaseOptions,
      // The key the webhooks seeded here are sealed with (testVault); the API's, in a deployment.
      env: {
        DATABASE_URL: databaseUrl(serverUrl, name),
        DATA_DIR: join(folder, "unused"),
        SECRETS_KEY: TEST_SECRETS_KEYS.key,
      } as Record<string, string>,
    };
  }

  if (engine === "postgres")
    it("names JWT_SECRET when DATABASE_URL is set without it (or SECRETS_KEY)", SLOW, async () => {
      const { env } = await cronDatabase();
      const { SECRETS_KEY: _, ...withoutKey } = env;
      expectPlainFailure(await pnpmCron(["--once"], withoutKey), "JWT_SECRET");
    });

  it("delivers the webhooks that are due in its one pass (--once)", SLOW, async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => receiver.close(resolve)));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cron`;

    const { options, env } = await cronDatabase();
    const database = await createDatabase(options);
    let accountId: string;
    try {
      await database.migrate();
      const owner = (await anOwner(database.db)).actor;
      await createWebhook(
        {
          ...asUser(database.db, owner),
          services: { webhookPolicy: { allowHttp: true, allowPrivate: true }, vault: testVault },
        },
        { url, event_types: ["bank_account.created"] },
      );
      accountId = (await anAccount(database.db, owner, { name: "Hooked" })).id;
    } finally {
      await database.close();
    }

    // The process's own policy: without these a loopback receiver is refused at delivery.
    const run = await pnpmCron(["--once"], {
      ...env,
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_ALLOW_PRIVATE: "true",
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(JSON.parse(String(request?.body))).toMatchObject({
      type: "bank_account.created",
      data: { type: "bank_account.created", bank_account: accountId },
    });
    expect(request?.headers["webhook-signature"]).toMatch(/^v1,/);
  });

  it("funds every auto-funding account as of the given date and logs a line for it", SLOW, async () => {
    const { options, env } = await cronDatabase();
    // The embedded database admits one process at a time: set up, close, then start cron.
    const database = await createDatabase(options);
    let accountId: string;
    try {
      await database.migrate();
      const owner = (await anOwner(database.db, { email: "cron@example.com", timezone: "Europe/Berlin" }))
        .actor;
      accountId = (await anAccount(database.db, owner, { balance: "100.00", autoFunding: true })).id;
      await anAccount(database.db, owner, { name: "Manual", autoFunding: false });
    } finally {
      await database.close();
    }

    // 2031-01-01 is ahead of the account's today: said first, and a script must pass --yes.
    const today = localDate(new Date(), "Europe/Berlin");
    const days = Math.round((Date.parse("2031-01-01") - Date.parse(today)) / 86_400_000);
    const warning = `warning: --as-of 2031-01-01 is ${days.toLocaleString("en")} days after today (${today}) for 1 auto-funding account, with 0 budgets with a funding schedule: this runs every funding of theirs due through 2031-01-01 now, as if those days had come.\n`;
    const unasked = await pnpmCron(["run", "fund", "--as-of", "2031-01-01"], env);
    expect(unasked.code).toBe(2);
    expect(unasked.stdout).toBe("");
    expect(unasked.stderr).toBe(
      `${warning}error: Run fund for 1 account ${days.toLocaleString("en")} days ahead, through 2031-01-01: money moves ahead of time, so pass --yes to confirm.\n`,
    );

    const run = await pnpmCron(["run", "fund", "--as-of", "2031-01-01", "--yes"], env);
    expect(run.stderr).toBe(warning);
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const logged = {
      level: "info",
      time: expect.any(String),
      pid: expect.any(Number),
      hostname: expect.any(String),
    };
    expect(lines).toEqual([
      {
        ...logged,
        msg: "fund done",
        job: "fund",
        account_id: accountId,
        local_date: "2031-01-01",
        status: "done",
        transfers: 0,
        occurrences_completed: 0,
        occurrences_partial: 0,
        warnings: 0,
        skipped_budgets: 0,
        duration_ms: expect.any(Number),
      },
      { ...logged, msg: "fund done", job: "fund", status: "done", result: { accounts: 1, failed: 0 } },
    ]);
  });

  it(
    "removes the receipts let go from the S3 bucket ATTACHMENT_STORAGE=s3 names (run remove-attachments)",
    SLOW,
    async () => {
      const s3 = await startS3Server();
      cleanups.push(() => s3.stop());
      const store = attachmentStoreFor(s3.settings);
      const [released, kept] = [1, 2].map(() => `transactions/${randomUUID()}/image/${randomUUID()}`) as [
        string,
        string,
      ];
      for (const key of [released, kept]) await store.put(key, Buffer.from("receipt"), "image/png");
      const { options, env } = await cronDatabase();
      const database = await createDatabase(options);
      try {
        await database.migrate();
        await database.db.insert(attachmentRemovals).values({ key: released });
      } finally {
        await database.close();
      }

      const run = await pnpmCron(["run", "remove-attachments"], { ...env, ...s3.env });
      // The AWS SDK warns on Node 20 that its releases from 2027 need Node 22: nothing else on stderr.
      expect(
        run.stderr.replace(
          /^\(node:\d+\) Warning: NodeVersionSupportWarning[\s\S]*?trace-warnings[^\n]*\n/,
          "",
        ),
      ).toBe("");
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout.trim())).toMatchObject({
        job: "remove-attachments",
        status: "done",
        result: 1,
      });
      expect(await bucketContents(s3)).toEqual([kept]);
      // The embedded database's first handle was closed: opened again from its folder.
      const after = await createDatabase(
        engine === "postgres" ? options : { dataDir: join(env.DATA_DIR as string, "pglite") },
      );
      try {
        expect(await after.db.select().from(attachmentRemovals)).toEqual([]);
      } finally {
        await after.close();
      }
    },
  );
});
