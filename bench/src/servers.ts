import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import type { Defer } from "./defer";
import { childEnv } from "./env";

const HOST = "127.0.0.1";
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;

interface ServerOptions {
  name: string;
  /**
   * A TypeScript entry point, run with tsx's loader; or an executable that runs Node itself, given
   * the Node options as its arguments (the built API's scripts/run-server, as `pnpm start` runs it).
   */
  entry: string;
  cwd: string;
  /** On top of ours (see childEnv: `undefined` leaves a variable of ours out). */
  env: Record<string, string | undefined>;
  /** A module loaded into the process before its entry (a file path). */
  preload?: string;
  /** Node options before the entry (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
}

/**
 * Starts a server as its own process (the process itself: no wrapper between) on a free loopback
 * port, and resolves once `GET /healthz` answers 200.
 * Its output goes to our stderr, so stdout stays the report. Its stop is deferred as it spawns.
 * Resolves to its base URL.
 */
export async function startServer(options: ServerOptions, defer: Defer): Promise<string> {
  return (await startStoppableServer(options, defer)).url;
}

/** A server child: its URL, its process id (the server itself: no shell between), and its stop. */
export interface RunningServer {
  url: string;
  pid: number;
  stop: () => Promise<void>;
}

/** startServer, with a stop for a server that must not outlive its scenario (the deferred one then does nothing). */
export async function startStoppableServer(options: ServerOptions, defer: Defer): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const nodeOptions = [
    ...(options.preload ? ["--import", pathToFileURL(options.preload).href] : []),
    ...(options.nodeArgs ?? []),
  ];
  const [program, ...args]: [string, ...string[]] = options.entry.endsWith(".ts")
    ? [process.execPath, "--import", import.meta.resolve("tsx"), ...nodeOptions, options.entry]
    : [options.entry, ...nodeOptions];
  const child = spawn(program, args, {
    cwd: options.cwd,
    env: childEnv({ ...options.env, PORT: String(port), HOST }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream.on("data", (chunk: Buffer) =>
      process.stderr.write(prefixLines(`[${options.name}] `, chunk.toString())),
    );
  }
  defer(() => stopChild(child));
  const { pid } = child;
  if (pid === undefined) throw new Error(`${options.name} could not be started`);
  await waitUntilHealthy(child, `${url}/healthz`, options.name);
  return { url, pid, stop: () => stopChild(child) };
}

/** A port nobody listens on right now (the OS picks it; we release it for the child). */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, HOST);
  await once(probe, "listening");
  const address = probe.address();
  probe.close();
  await once(probe, "close");
  if (!address || typeof address === "string") throw new Error("could not find a free port");
  return address.port;
}

async function waitUntilHealthy(child: ChildProcess, healthUrl: string, name: string) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited before it was ready (${child.exitCode ?? child.signalCode})`);
    }
    try {
      const response = await fetch(healthUrl);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`${name} did not answer ${healthUrl} within ${READY_TIMEOUT_MS / 1000} s`);
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

function prefixLines(prefix: string, text: string) {
  return text.replace(/^(?=.)/gm, prefix);
}
