import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { databaseUrl, withAdminConnection } from "@allot/db/testing/test-databases";
import { RUN_BUILT_SERVER } from "../testing/built-server";

const apiRoot = fileURLToPath(new URL("../..", import.meta.url));
const cronRoot = fileURLToPath(new URL("../../../cron", import.meta.url));
// A process started under load on a 2-core machine: tens of seconds, not how fast it starts.
const READY_TIMEOUT_MS = 150_000;
const STOP_TIMEOUT_MS = 20_000;

/** Registers what to undo; the test undoes it in reverse order. */
export type Defer = (undo: () => Promise<unknown>) => void;

export interface RunningProcess {
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then its exit code (SIGKILL after 20 s). */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const address = server.address();
  await new Promise((r) => server.close(r));
  if (!address || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/** An empty database of its own on the DATABASE_URL server, dropped afterwards. */
export async function scratchDatabase(defer: Defer): Promise<string> {
  const serverUrl = process.env.DATABASE_URL as string;
  const name = `allot_scale_${randomBytes(4).toString("hex")}`;
  await withAdminConnection(serverUrl, (sql) => sql.unsafe(`create database ${name}`));
  defer(() =>
    withAdminConnection(serverUrl, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`)),
  );
  return databaseUrl(serverUrl, name);
}

/** Only what the test names, plus PATH and the like: no DATABASE_URL, REDIS_URL … of the test run. */
function processEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  for (const name of Object.keys(inherited)) {
    if (
      /^(DATABASE_URL|DATA_DIR|INIT_CWD|JWT_SECRET|SECRETS_KEY|REDIS_|THROTTLE_|SCHEDULER|MAIL_|SMTP_|ATTACHMENT_|S3_|PORT|HOST)/.test(
        name,
      )
    )
      delete inherited[name];
  }
  return { ...inherited, LOG_LEVEL: "warn", ...env };
}

/** `command` (the program and its arguments) run in `cwd`, its stop deferred. */
function run(
  [program, ...args]: [string, ...string[]],
  cwd: string,
  env: Record<string, string>,
  defer: Defer,
): RunningProcess {
  const child: ChildProcess = spawn(program, args, {
    cwd,
    env: processEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    return child.exitCode;
  };
  defer(stop);
  return { output: () => output, stop, exited };
}

export interface ApiProcess extends RunningProcess {
  base: string;
}

/** The built API as `pnpm start` runs it, once /healthz answers 200. */
export async function startApi(env: Record<string, string>, defer: Defer): Promise<ApiProcess> {
  const port = await freePort();
  const server = runApi({ ...env, PORT: String(port), HOST: "127.0.0.1" }, defer);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`API exited with ${exitCode}:\n${server.output()}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { ...server, base };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`API gave no healthy answer within ${READY_TIMEOUT_MS} ms:\n${server.output()}`);
}

/** The API process that is expected to stop by itself (e.g. on a bad configuration). */
export function runApiToExit(env: Record<string, string>, defer: Defer): RunningProcess {
  return runApi(env, defer);
}

const runApi = (env: Record<string, string>, defer: Defer) => run([RUN_BUILT_SERVER], apiRoot, env, defer);

/** `pnpm cron` (the scheduler loop) or `pnpm cron run …`, with tsx as pnpm runs it. */
export function startCron(args: string[], env: Record<string, string>, defer: Defer): RunningProcess {
  // Its runs are `info` lines (decision 0056), which the tests read.
  return run(
    [process.execPath, "--import", "tsx", "src/main.ts", ...args],
    cronRoot,
    { LOG_LEVEL: "info", ...env },
    defer,
  );
}

/** The JSON lines a scheduler prints, one per run. */
export function jobLines(output: string): Record<string, unknown>[] {
  return output
    .split("\n")
    .slice(0, -1)
    .filter((line) => line.startsWith("{") && line.includes('"job"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  return check();
}
