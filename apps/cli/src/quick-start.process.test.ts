import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RUN_BUILT_SERVER } from "@allot/api/test/testing/built-server";
import { useWebhookReceiver } from "@allot/api/test/testing/webhook-receiver";
import {
  databaseUrl,
  SNAPSHOT_ENV,
  TEMPLATE_ENV,
  testEngines,
  withAdminConnection,
} from "@allot/db/testing/test-databases";
import { PGlite } from "@electric-sql/pglite";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { type CliRun, runCli } from "../test/testing/run-cli";

/*
 * The README's quick start on a default install, every piece a real process: the built server as
 * `pnpm start` runs it (no MAIL_TRANSPORT, no SMTP, DATA_DIR left to its default under where the
 * command was typed), the built `allot` as `pnpm cli` runs it, and, on PostgreSQL, `pnpm cron`.
 * The co-owner joins through the emails the server wrote to its outbox folder, read with
 * `allot admin mail` while the server runs, and the pages their links open, pressed as a browser does.
 */

const apiRoot = fileURLToPath(new URL("../../api", import.meta.url));
const cronRoot = fileURLToPath(new URL("../../cron", import.meta.url));
// The server starts (twice on the embedded database), a cron run and some twenty CLI runs.
const SLOW = { timeout: 600_000 };
const START_TIMEOUT_MS = 150_000;
const PASSWORD = "plum sofa quietly river lantern";
const SAM_PASSWORD = "otter violin harbour lemonade";

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });

async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * A zone whose clock reads 23:00–23:56 now, as early in that hour as there is one: the scheduler
 * funds an auto-funding account from 23:00 in its first owner's zone, and the run must come before
 * that zone's midnight. In an hour's last minutes with no half-hour zone at 23:xx, waits for the next hour.
 */
async function zoneAtElevenPm(): Promise<string> {
  const find = () => {
    const now = new Date();
    return Intl.supportedValuesOf("timeZone")
      .map((zone) => {
        const [hour, minute] = new Intl.DateTimeFormat("en-GB", {
          timeZone: zone,
          hour: "2-digit",
          minute: "2-digit",
          hourCycle: "h23",
        })
          .format(now)
          .split(":")
          .map(Number);
        return { zone, hour, minute: minute ?? 60 };
      })
      .filter((c) => c.hour === 23 && c.minute <= 56)
      .sort((x, y) => x.minute - y.minute)[0]?.zone;
  };
  const zone = find();
  if (zone) return zone;
  const now = Date.now();
  await new Promise((r) => setTimeout(r, Math.ceil(now / 3_600_000) * 3_600_000 - now + 1_000));
  const later = find();
  if (!later) throw new Error(`no time zone at 23:00–23:56 at ${new Date().toISOString()}`);
  return later;
}

/** The JSON lines a scheduler prints (`{"time", "job", …}`), from a process's output. */
const jobLines = (output: string) =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{") && line.includes('"job"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

interface Server {
  base: string;
  output(): string;
  /** SIGTERM, the orderly stop (Ctrl-C); the exit code. */
  stop(): Promise<number | null>;
}

/** The built server as `pnpm start` runs it from `root`, with only the given variables besides. */
async function startServer(root: string, port: number, env: Record<string, string>): Promise<Server> {
  const child: ChildProcess = spawn(RUN_BUILT_SERVER, [], {
    cwd: apiRoot,
    // What pnpm gives the script: INIT_CWD, where `pnpm start` was typed. Nothing else of Allot's.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, INIT_CWD: root, PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code)),
  );
  const base = `http://127.0.0.1:${port}`;
  const server = {
    base,
    output: () => output,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
  try {
    await waitFor(
      "healthy answer",
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
        return (await fetch(`${base}/healthz`).catch(() => null))?.ok ? true : undefined;
      },
      START_TIMEOUT_MS,
    );
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return server;
}

/** A form's button pressed in a browser: a urlencoded POST to the page's own address. */
const press = (url: string, fields: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

const ok = (run: CliRun) => {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  return run;
};

interface MailJson {
  to: string;
  subject: string;
  links: string[];
  created_at: string;
}

describe.each(testEngines())("the README's quick start on a default install (%s)", (engine) => {
  const receiver = useWebhookReceiver();
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });

  it(
    "first user, a co-owner invited through the outbox on disk and joined, a budget funded by the scheduler, an import, a webhook",
    SLOW,
    async () => {
      // The repository root a user typed `pnpm start` and `pnpm cli` in; DATA_DIR is its ./.data.
      const root = await mkdtemp(join(tmpdir(), "allot-quick-start-"));
      cleanups.push(() => rm(root, { recursive: true, force: true }));
      const dataDir = join(root, ".data");
      const outbox = join(dataDir, "mail");
      // Webhooks to a receiver on loopback over plain HTTP: a development install's two settings.
      const serverEnv: Record<string, string> = { WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE: "true" };
      if (engine === "pglite") {
        // The run's migrated snapshot: what the first start's migrations make, sooner.
        const snapshot = new Blob([await readFile(process.env[SNAPSHOT_ENV] as string)]);
        await mkdir(dataDir, { recursive: true });
        await (await PGlite.create({ dataDir: join(dataDir, "pglite"), loadDataDir: snapshot })).close();
      } else {
        const serverUrl = process.env.DATABASE_URL as string;
        const name = `allot_quick_${randomBytes(4).toString("hex")}`;
        await withAdminConnection(serverUrl, (sql) =>
          sql.unsafe(`create database ${name} template ${process.env[TEMPLATE_ENV]}`),
        );
        cleanups.push(() =>
          withAdminConnection(serverUrl, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`)),
        );
        serverEnv.DATABASE_URL = databaseUrl(serverUrl, name);
        serverEnv.JWT_SECRET = randomBytes(32).toString("hex");
      }
      const port = await freePort();
      let server = await startServer(root, port, serverEnv);
      cleanups.push(() => server.stop());
      const outputs = [server.output];

      // The start lines say where the mail goes.
      expect(server.output()).toContain(`Email goes to files in ${outbox}: \`pnpm cli admin mail\``);

      // The first user, through the one-time link the server printed.
      const setupLink = /http:\/\/127\.0\.0\.1:\d+\/links\/setup\/\S+/.exec(server.output())?.[0];
      expect(setupLink, server.output()).toBeDefined();
      const zone = await zoneAtElevenPm();
      const setUp = await press(setupLink as string, {
        email: "me@example.com",
        name: "Me",
        password: PASSWORD,
        confirm_password: PASSWORD,
        timezone: zone,
        bank_name: "First Bank",
        bank_currency: "USD",
      });
      expect(setUp.status, await setUp.clone().text()).toBe(200);
      expect(await setUp.text()).toContain("Allot is set up");

      // `pnpm cli …` as typed in the same folder, each person with their own profile file.
      const cli = (who: "me" | "sam", args: string[], stdin?: string) =>
        runCli(args, {
          env: {
            INIT_CWD: root,
            ALLOT_URL: server.base,
            ALLOT_CONFIG: join(root, `${who}-config.json`),
            ...(serverEnv.DATABASE_URL ? { DATABASE_URL: serverEnv.DATABASE_URL } : {}),
          },
          stdin,
        });
      /** The newest message to `to` with a link to `page`, as `allot admin mail` shows it (waiting for the sender). */
      const mailTo = (to: string, page: string) =>
        waitFor(`email to ${to} with a ${page} link`, async () => {
          const run = ok(await cli("me", ["admin", "mail", "--to", to, "--last", "1", "--json"]));
          const [message] = run.json<MailJson[]>();
          return message?.links.find((link) => link.includes(`/links/${page}/`));
        });

      ok(await cli("me", ["login", "--email", "me@example.com"], `${PASSWORD}\n`));
      ok(
        await cli("me", [
          "accounts",
          "create",
          "--name",
          "Checking",
          "--bank",
          "First Bank",
          "--balance",
          "2500.00",
          "--auto-funding",
        ]),
      );
      ok(
        await cli("me", [
          "budgets",
          "create",
          "Groceries",
          "--type",
          "capped",
          "--target",
          "600",
          "--amount",
          "150",
          "--schedule",
          "FREQ=WEEKLY",
        ]),
      );

      // A co-owner: invited by email, the link read from the outbox while the server runs.
      ok(await cli("me", ["invite", "sam@example.com", "--account", "Checking"]));
      const invitation = await mailTo("sam@example.com", "invitations");
      expect(invitation.startsWith(`${server.base}/links/invitations/`)).toBe(true);
      const shown = ok(await cli("me", ["admin", "mail", "--to", "sam@example.com"]));
      expect(shown.stdout).toContain(`link     ${invitation}\n`);
      // The secret is in the outbox (0600 in a 0700 folder) and nowhere in the server's output.
      const secret = new URL(invitation).pathname.split("/").pop() as string;
      expect(server.output()).not.toContain(secret);
      expect((await stat(outbox)).mode & 0o777).toBe(0o700);

      // Sam opens the link and presses Accept; a new user is emailed a link to choose a password.
      const page = await fetch(invitation);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`action="${new URL(invitation).pathname}/accept"`);
      const accepted = await press(`${invitation}/accept`);
      expect(accepted.status).toBe(200);
      expect(await accepted.text()).toContain("Invitation accepted");
      const choosePassword = await mailTo("sam@example.com", "password-reset");
      expect(server.output()).not.toContain(new URL(choosePassword).pathname.split("/").pop());
      const chosen = await press(choosePassword, {
        new_password: SAM_PASSWORD,
        confirm_password: SAM_PASSWORD,
      });
      expect(chosen.status, await chosen.clone().text()).toBe(200);

      // Sam signs in and sees the account.
      ok(await cli("sam", ["login", "--email", "sam@example.com"], `${SAM_PASSWORD}\n`));
      const samAccounts = ok(await cli("sam", ["accounts", "list", "--json"])).json<{ name: string }[]>();
      expect(samAccounts.map((account) => account.name)).toEqual(["Checking"]);

      // The scheduler funds the budget: it is past 23:00 in the first owner's zone. On the embedded
      // database it runs inside the server, a pass at each start and every minute: a restart (as
      // after an upgrade) makes the pass now. On PostgreSQL `pnpm cron` runs it (`--once`: one pass).
      if (engine === "pglite") {
        expect(await server.stop()).toBe(0);
        server = await startServer(root, port, serverEnv);
        outputs.push(server.output);
        await waitFor("fund run", () =>
          jobLines(outputs.map((output) => output()).join("\n")).find(
            (line) => line.job === "fund" && "account_id" in line,
          ),
        );
      } else {
        const cron = await new Promise<string>((resolve, reject) => {
          const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", "--once"], {
            cwd: cronRoot,
            env: {
              PATH: process.env.PATH,
              HOME: process.env.HOME,
              INIT_CWD: root,
              DATABASE_URL: serverEnv.DATABASE_URL,
              JWT_SECRET: serverEnv.JWT_SECRET,
            },
            stdio: ["ignore", "pipe", "pipe"],
          });
          let output = "";
          child.stdout.on("data", (d) => (output += d));
          child.stderr.on("data", (d) => (output += d));
          child.on("error", reject);
          child.on("close", (code) =>
            code === 0 ? resolve(output) : reject(new Error(`cron: ${code}\n${output}`)),
          );
        });
        outputs.push(() => cron);
      }
      const funded = jobLines(outputs.map((output) => output()).join("\n")).filter(
        (line) => line.job === "fund" && "account_id" in line,
      );
      expect(funded).toEqual([expect.objectContaining({ status: "done", transfers: 1 })]);
      const budgets = ok(await cli("sam", ["budgets", "list", "--account", "Checking", "--json"])).json<
        { name: string; balance: string }[]
      >();
      expect(budgets.find((budget) => budget.name === "Groceries")?.balance).toBe("150.00");

      // A webhook, received by a real HTTP server and verified the Standard Webhooks way.
      const hook = ok(
        await cli("me", [
          "webhooks",
          "create",
          `${receiver.url}/hooks/allot`,
          "--account",
          "Checking",
          "--event",
          "import.synced",
          "--json",
        ]),
      ).json<{ secret: string }>();

      // An import of the bank's CSV.
      const csv = join(root, "export.csv");
      await writeFile(
        csv,
        "Date,Amount,Description\n2026-01-02,-82.40,FRESH MARKET\n2026-01-03,-12.00,CAFE\n",
      );
      const imported = ok(
        await cli("me", [
          "import",
          "csv",
          csv,
          "--account",
          "Checking",
          "--map",
          "date=Date,amount=Amount,description=Description",
          "--json",
        ]),
      );
      expect(imported.json()).toMatchObject({ rows: 2, inserted_posted: 2 });

      const [delivery] = await receiver.waitFor(1, 30_000);
      expect(delivery?.path).toBe("/hooks/allot");
      const event = new Webhook(hook.secret).verify(
        delivery?.body as string,
        delivery?.headers as Record<string, string>,
      ) as { type: string };
      expect(event.type).toBe("import.synced");

      // Nothing of it needed SMTP, and no link's secret reached a log.
      expect(server.output()).not.toContain(secret);
      expect(await server.stop()).toBe(0);
    },
  );
});
