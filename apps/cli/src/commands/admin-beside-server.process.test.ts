import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ApiProcess, startApiProcess } from "@allot/api/test/faults/api-process";
import { RUN_BUILT_SERVER } from "@allot/api/test/testing/built-server";
import { createDatabase } from "@allot/db/create-database";
import { lockFileOf } from "@allot/db/embedded-database-lock";
import {
  databaseUrl,
  SNAPSHOT_ENV,
  TEMPLATE_ENV,
  withAdminConnection,
} from "@allot/db/testing/test-databases";
import { PGlite } from "@electric-sql/pglite";
import type { Command } from "commander";
import { afterEach, describe, expect, it } from "vitest";
import { type CliRun, runCli } from "../../test/testing/run-cli";
import { readEnv } from "../env";
import { loadEveryCommand } from "../lazy-commands";
import { createProgram } from "../program";

// Two server starts, one refused start, a cron and a handful of CLI runs, each a real process.
const SLOW = { timeout: 300_000 };
const RUN_LIMIT_MS = 120_000;
const apiRoot = fileURLToPath(new URL("../../../api", import.meta.url));
const cronRoot = fileURLToPath(new URL("../../../cron", import.meta.url));

/** `command` in an app's folder, with only the given variables; its end. */
function runToExit(cwd: string, [program, ...args]: [string, ...string[]], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(program, args, {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    // One that is not refused (a second server) would run on: end it, for the test to fail.
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_LIMIT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const login = (server: ApiProcess, email: string, password: string) =>
  fetch(`${server.base}/api/token/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });

const PASSWORD = "correct horse battery";

/** Every admin command, as a user beside the server would type it, refused with `message`. */
const refusedRuns: Record<
  string,
  { args: string[]; stdin?: string; expect(run: CliRun, message: string): void }
> = {
  "create-user": {
    args: ["admin", "create-user", "--email", "refused@example.com", "--password", PASSWORD],
    expect: (run, message) => expect(run.stderr).toBe(`error: ${message}\n`),
  },
  "create-bank": {
    args: ["admin", "create-bank", "--name", "Refused Bank", "--currency", "USD", "--json"],
    expect: (run, message) => expect(run.errorJson()).toEqual({ detail: message, code: "database_in_use" }),
  },
  migrate: {
    args: ["admin", "migrate"],
    expect: (run, message) => expect(run.stderr).toBe(`error: ${message}\n`),
  },
};

describe("the embedded database beside a running server", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });

  it("lists every admin command here", async () => {
    const program = await loadEveryCommand(createProgram(async () => readEnv({}, tmpdir())));
    const admin = program.commands.find((command) => command.name() === "admin") as Command;
    // `mail` reads the outbox folder, not the database: it runs beside the server (below).
    expect(admin.commands.map((command) => command.name()).sort()).toEqual(
      [...Object.keys(refusedRuns), "mail"].sort(),
    );
  });

  it(
    "refuses every admin command, cron and a second server, writing nothing; a killed server's lock is taken over",
    SLOW,
    async () => {
      const folder = await mkdtemp(join(tmpdir(), "allot-beside-"));
      cleanups.push(() => rm(folder, { recursive: true, force: true }));
      const dataDir = join(folder, "pglite");
      const snapshot = new Blob([await readFile(process.env[SNAPSHOT_ENV] as string)]);
      await (await PGlite.create({ dataDir, loadDataDir: snapshot })).close();
      const env = { DATA_DIR: folder };
      // As `pnpm start` runs it: the scheduler inside the server.
      const first = await startApiProcess({ ...env, SCHEDULER: "embedded" });
      cleanups.push(() => first.kill());
      expect(JSON.parse(readFileSync(lockFileOf(dataDir), "utf8"))).toMatchObject({
        pid: first.child.pid,
        command: "the Allot server",
      });
      const message =
        `The embedded database in ${dataDir} is in use by process ${first.child.pid} (the Allot server). ` +
        "Stop it first, or run this command against PostgreSQL with DATABASE_URL.";

      const [cron, second, ...admin] = await Promise.all([
        runToExit(cronRoot, [process.execPath, "--import", "tsx", "src/main.ts", "--once"], env),
        runToExit(apiRoot, [RUN_BUILT_SERVER], { ...env, PORT: "0", LOG_LEVEL: "warn" }),
        ...Object.values(refusedRuns).map(({ args, stdin }) => runCli(args, { env, stdin })),
        // The password is not asked for in vain: refused before it is read.
        runCli(["admin", "create-user", "--email", "typed@example.com", "--json"], { env }),
      ]);
      expect(cron).toEqual({ code: 1, output: `${message}\n` });
      expect(second).toEqual({ code: 1, output: `${message}\n` });
      for (const [index, { expect: expectRefusal }] of Object.values(refusedRuns).entries()) {
        const run = admin[index] as CliRun;
        expect(run.code, run.stderr).toBe(1);
        expect(run.stdout).toBe("");
        expectRefusal(run, message);
      }
      const typed = admin.at(-1) as CliRun;
      expect(typed.code).toBe(1);
      expect(typed.errorJson()).toEqual({ detail: message, code: "database_in_use" });

      // The outbox is a folder, not the database: `admin mail` reads it beside the server.
      const mail = await runCli(["admin", "mail"], { env });
      expect(mail.code, mail.stderr).toBe(0);
      expect(mail.stdout).toMatch(/^No mail in /);

      // Unaffected: it answers, and holds the lock still.
      expect((await fetch(`${first.base}/healthz`)).status).toBe(200);
      expect((await login(first, "refused@example.com", PASSWORD)).status).toBe(401);
      expect(JSON.parse(readFileSync(lockFileOf(dataDir), "utf8")).pid).toBe(first.child.pid);

      // PostgreSQL is another matter: an admin command there works beside the embedded server.
      const serverUrl = process.env.DATABASE_URL;
      if (serverUrl) {
        const name = `allot_beside_${randomBytes(4).toString("hex")}`;
        await withAdminConnection(serverUrl, (sql) =>
          sql.unsafe(`create database ${name} template ${process.env[TEMPLATE_ENV]}`),
        );
        cleanups.push(() =>
          withAdminConnection(serverUrl, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`)),
        );
        const onPostgres = await runCli(refusedRuns["create-bank"]?.args ?? [], {
          env: { ...env, DATABASE_URL: databaseUrl(serverUrl, name) },
        });
        expect(onPostgres.code, onPostgres.stderr).toBe(0);
        expect(onPostgres.json()).toMatchObject({ name: "Refused Bank" });
      }

      // SIGKILL runs no exit handler: the lock stays, naming a process that is gone; the next
      // server takes it over.
      await first.kill();
      expect(JSON.parse(readFileSync(lockFileOf(dataDir), "utf8")).pid).toBe(first.child.pid);
      const next = await startApiProcess(env);
      cleanups.push(() => next.kill());
      expect(JSON.parse(readFileSync(lockFileOf(dataDir), "utf8"))).toMatchObject({
        pid: next.child.pid,
        command: "the Allot server",
      });
      expect((await login(next, "refused@example.com", PASSWORD)).status).toBe(401);

      // An orderly stop releases the lock, and then the admin commands work.
      expect(await next.stop()).toBe(0);
      expect(existsSync(lockFileOf(dataDir))).toBe(false);
      const created = await runCli(
        ["admin", "create-user", "--email", "after@example.com", "--password", PASSWORD, "--json"],
        { env },
      );
      expect(created.code, created.stderr).toBe(0);
      expect(existsSync(lockFileOf(dataDir))).toBe(false);

      // Nothing of the refused commands was written; the later user was.
      const database = await createDatabase({ dataDir }, "the test");
      try {
        const users = await database.db.query.users.findMany({ columns: { username: true } });
        expect(users.map((user) => user.username)).toEqual(["after@example.com"]);
        expect(await database.db.query.banks.findMany()).toEqual([]);
      } finally {
        await database.close();
      }
    },
  );
});
