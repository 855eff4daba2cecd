import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  databaseUrl,
  SNAPSHOT_ENV,
  TEMPLATE_ENV,
  testEngines,
  withAdminConnection,
} from "@allot/db/testing/test-databases";
import { testVault } from "@allot/domain/testing/test-vault";
import { selfSignedCertificate } from "@allot/mail/testing/self-signed-certificate";
import { startTestSmtpServer } from "@allot/mail/testing/test-smtp-server";
import { jobsFor } from "@allot/scheduler/jobs";
import { PGlite } from "@electric-sql/pglite";
import { afterEach, describe, expect, it } from "vitest";
import { RUN_BUILT_SERVER } from "../test/testing/built-server";
import { temporaryAttachmentStore } from "../test/testing/test-attachments";

// Names only: the server process runs them over its own store.
const jobs = jobsFor(
  { changesRetentionDays: 90 },
  { attachments: temporaryAttachmentStore().store, vault: () => testVault },
);

const apiRoot = fileURLToPath(new URL("..", import.meta.url));

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return response;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no healthy answer from ${url} within ${timeoutMs} ms`);
}

/** The JSON lines a scheduler run logs (`{"time", "job", "status", …}`), from a process's output. */
const jobLines = (output: string) =>
  output
    .split("\n")
    .slice(0, -1) // the last piece is an unfinished line, or empty
    .filter((line) => line.startsWith("{") && line.includes('"job"'))
    .map((line) => JSON.parse(line) as { job: string; status: string });

async function waitFor(check: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return check();
}

/** The built server, as `pnpm start` runs it: catches import-time and bundling traps. */
describe.each(testEngines())("the server process (%s)", (engine) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /**
   * Starts the built server on a scratch database of `engine` and waits for /healthz. The database is
   * created and migrated by the server unless `migrated` (then a copy of the run's migrated
   * snapshot or template: a quicker start), which may be given `seed` SQL before the server opens it.
   */
  async function startServer(
    extraEnv: Record<string, string> = {},
    { migrated = false, seed }: { migrated?: boolean; seed?: string } = {},
  ) {
    const dataDir = await mkdtemp(join(tmpdir(), "allot-server-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    if (migrated && engine === "pglite") {
      const snapshot = new Blob([await readFile(process.env[SNAPSHOT_ENV] as string)]);
      const pglite = await PGlite.create({ dataDir: join(dataDir, "pglite"), loadDataDir: snapshot });
      if (seed) await pglite.exec(seed);
      await pglite.close();
    }
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      // A job's run is an `info` line (decision 0056): the tests read them.
      LOG_LEVEL: "info",
      PORT: String(await freePort()),
      ...extraEnv,
    };
    delete env.DATABASE_URL;
    if (!("SCHEDULER" in extraEnv)) delete env.SCHEDULER;
    if (engine === "postgres") {
      const serverUrl = process.env.DATABASE_URL as string;
      const name = `allot_process_${randomBytes(4).toString("hex")}`;
      const template = migrated ? ` template ${process.env[TEMPLATE_ENV]}` : "";
      await withAdminConnection(serverUrl, (sql) => sql.unsafe(`create database ${name}${template}`));
      cleanups.push(() =>
        withAdminConnection(serverUrl, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`)),
      );
      env.DATABASE_URL = databaseUrl(serverUrl, name);
      if (seed) await withAdminConnection(env.DATABASE_URL, (sql) => sql.unsafe(seed));
      env.JWT_SECRET = randomBytes(32).toString("hex");
    }
    const child = spawn(RUN_BUILT_SERVER, [], {
      cwd: apiRoot,
      env,
      stdio: "pipe",
    });
    const base = `http://127.0.0.1:${env.PORT}`;
    let output = "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((r) =>
      child.exitCode !== null ? r(child.exitCode) : child.once("exit", (code) => r(code)),
    );
    const stop = () => {
      child.kill("SIGTERM");
      return exited;
    };
    cleanups.push(stop);

    // Generous: a fresh embedded database takes 15–40 s to start on a busy 2-CPU machine. How fast
    // the server starts is not what this test checks (speed belongs in benchmarks).
    await waitForHealth(`${base}/healthz`, child, 150_000).catch((error) => {
      throw new Error(`${error.message}\n${output}`);
    });
    return { base, stop, output: () => output };
  }

  it("starts, migrates and answers /healthz", async () => {
    const server = await startServer();
    const health = await fetch(`${server.base}/healthz`);
    expect(await health.json()).toEqual({ status: "ok" });
    const document = await fetch(`${server.base}/api/v1/openapi.json`);
    expect(document.status).toBe(200);
    // Through auth and the default throttle rates: a wrong password is a 401, not a 500.
    const login = await fetch(`${server.base}/api/token/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.com", password: "wrong" }),
    });
    expect(login.status).toBe(401);

    if (engine === "pglite") {
      // The embedded database admits no `pnpm cron` beside the server: the server runs the jobs,
      // and the clean-ups are due at once, with the same log lines as cron's.
      const ran = await waitFor(() => jobLines(server.output()).length >= jobs.length, 60_000);
      expect(ran, server.output()).toBe(true);
      expect(jobLines(server.output())).toEqual(
        jobs.map((job) => expect.objectContaining({ job: job.name, status: "done" })),
      );
    } else {
      // PostgreSQL: `pnpm cron` processes run the jobs, not the server.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(jobLines(server.output())).toEqual([]);
    }
    // SIGTERM stops the scheduler, then the server and the database, and exits cleanly.
    expect(await server.stop()).toBe(0);
  }, 240_000);

  it("sends queued email through MAIL_TRANSPORT=smtp over STARTTLS, trusting SMTP_TLS_CA", async () => {
    const password = "process p@ss";
    const tls = selfSignedCertificate();
    const caDir = await mkdtemp(join(tmpdir(), "allot-smtp-ca-"));
    cleanups.push(() => rm(caDir, { recursive: true, force: true }));
    await writeFile(join(caDir, "ca.pem"), tls.cert);
    const smtp = await startTestSmtpServer({
      ...tls,
      onAuth: (auth, _session, callback) =>
        auth.password === password ? callback(null, { user: auth.username }) : callback(new Error("No")),
    });
    cleanups.push(smtp.close);
    const server = await startServer(
      {
        MAIL_TRANSPORT: "smtp",
        SMTP_URL: `smtp://allot:${encodeURIComponent(password)}@127.0.0.1:${smtp.port}`,
        SMTP_TLS_CA: join(caDir, "ca.pem"),
        MAIL_FROM: "Allot <noreply@allot.test>",
      },
      {
        migrated: true,
        seed: `insert into email_outbox (kind, to_address, subject, text_body, html_body)
          values ('password_changed', 'sam@example.com', 'Queued before the start', 'Plain', '<p>Rich</p>')`,
      },
    );
    expect(await waitFor(() => smtp.received.length > 0, 30_000), server.output()).toBe(true);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({ secure: true, user: "allot" });
    expect(smtp.received[0]?.mail.subject).toBe("Queued before the start");
    expect(server.output()).not.toContain("p@ss");
    // SIGTERM closes the SMTP connection with the rest, and the process exits cleanly.
    expect(await server.stop()).toBe(0);
  }, 240_000);

  if (engine !== "pglite") return;

  it("runs no scheduled jobs with SCHEDULER=off", async () => {
    const server = await startServer({ SCHEDULER: "off" }, { migrated: true });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(jobLines(server.output())).toEqual([]);
    expect(await server.stop()).toBe(0);
  }, 240_000);
});
