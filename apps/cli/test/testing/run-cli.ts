import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const CLI_PACKAGE = fileURLToPath(new URL("../..", import.meta.url));
/** The bundle `pnpm --filter @allot/cli build` makes, which vitest's global setup builds first. */
const CLI_BIN = fileURLToPath(new URL("../../dist/allot.js", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  /** stdout as the bytes written (a downloaded file). */
  stdoutBytes: Buffer;
  stderr: string;
  /** stdout parsed as JSON (for --json runs). */
  json<T = unknown>(): T;
  /** stderr parsed as JSON (errors of --json runs). */
  errorJson<T = unknown>(): T;
}

/**
 * Runs the real `allot` in a child process, the built command an install gives, with only the
 * given Allot variables: nothing of the test process's DATABASE_URL or INIT_CWD leaks in. Aborting
 * `signal` SIGKILLs it (the run then ends with code null).
 */
export function runCli(
  args: string[],
  options: {
    env?: Record<string, string | undefined>;
    stdin?: string;
    signal?: AbortSignal;
    /** The folder it runs in (default: the CLI's package). */
    cwd?: string;
  } = {},
): Promise<CliRun> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      cwd: options.cwd ?? CLI_PACKAGE,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      signal: options.signal,
      killSignal: "SIGKILL",
    });
    const stdout: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout.push(chunk);
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", (error) => {
      if (error.name !== "AbortError") reject(error);
    });
    child.on("close", (code) => {
      const bytes = Buffer.concat(stdout);
      const text = bytes.toString("utf8");
      resolve({
        code,
        stdout: text,
        stdoutBytes: bytes,
        stderr,
        json: () => JSON.parse(text),
        errorJson: () => JSON.parse(stderr),
      });
    });
    child.stdin.end(options.stdin ?? "");
  });
}
