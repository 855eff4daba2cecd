import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { RUN_BUILT_SERVER } from "../testing/built-server";

const apiRoot = fileURLToPath(new URL("../..", import.meta.url));
/** Test-only preload (see freeze-at-statement.mjs): freezes the process before a chosen statement. */
const freezePreload = fileURLToPath(new URL("./freeze-at-statement.mjs", import.meta.url));
/** Test-only preload (see freeze-before-response.mjs): freezes the process before a chosen answer. */
const responsePreload = fileURLToPath(new URL("./freeze-before-response.mjs", import.meta.url));

// A busy 2-CPU machine can take tens of seconds to start the process.
const START_TIMEOUT_MS = 150_000;

export interface ApiProcess {
  base: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGKILL: no shutdown hook runs, nothing is flushed or closed. Resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM, the orderly stop; resolves to the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts the built server as `pnpm start` does (scripts/run-server, which execs Node: no wrapper
 * process in between, so a signal reaches the API itself) and waits for /healthz. `freezeAt`
 * (a RegExp source) loads the freezing preload, used on the embedded engine where no other
 * process can watch the database. `freezeResponse` (a RegExp source) loads the preload that freezes
 * the process before it writes the first HTTP response matching it, on either engine.
 */
export async function startApiProcess(
  env: Record<string, string>,
  options: { freezeAt?: string; freezeResponse?: string } = {},
): Promise<ApiProcess> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: "warn",
    SCHEDULER: "off",
    // The stream of small writes must not meet the per-user throttle.
    THROTTLE_RATE_USER: "100000/minute",
    ...env,
    PORT: String(port),
    HOST: "127.0.0.1",
  };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const preload = [
    ...(options.freezeAt ? ["--import", freezePreload] : []),
    ...(options.freezeResponse ? ["--import", responsePreload] : []),
  ];
  if (options.freezeAt) childEnv.FAULT_FREEZE_AT = options.freezeAt;
  if (options.freezeResponse) childEnv.FAULT_FREEZE_RESPONSE = options.freezeResponse;
  const child = spawn(RUN_BUILT_SERVER, preload, {
    cwd: apiRoot,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const exited = new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
  );
  const base = `http://127.0.0.1:${port}`;
  const handle: ApiProcess = {
    base,
    child,
    output: () => output,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      return child.exitCode;
    },
  };
  try {
    await waitForHealth(`${base}/healthz`, child);
  } catch (error) {
    await handle.kill();
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return handle;
}

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const address = probe.address();
  probe.close();
  await once(probe, "close");
  if (!address || typeof address === "string") throw new Error("no free port");
  return address.port;
}

async function waitForHealth(url: string, child: ChildProcess) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the API exited before it was ready (${child.exitCode ?? child.signalCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no healthy answer from ${url} within ${START_TIMEOUT_MS / 1000} s`);
}
