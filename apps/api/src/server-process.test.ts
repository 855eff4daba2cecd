import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { databaseUrl, testEngines, withAdminConnection } from "@allot/db/testing/test-databases";
import { afterEach, describe, expect, it } from "vitest";

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

/** The real entry point under plain Node ESM (tsx), as `pnpm start` runs it: catches import-time traps. */
describe.each(testEngines())("the server process (%s)", (engine) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("starts, migrates and answers /healthz within 30 s", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "allot-server-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      PORT: String(await freePort()),
    };
    delete env.DATABASE_URL;
    if (engine === "postgres") {
      const serverUrl = process.env.DATABASE_URL as string;
      const name = `allot_process_${randomBytes(4).toString("hex")}`;
      await withAdminConnection(serverUrl, (sql) => sql.unsafe(`create database ${name}`));
      cleanups.push(() =>
        withAdminConnection(serverUrl, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`)),
      );
      env.DATABASE_URL = databaseUrl(serverUrl, name);
      env.JWT_SECRET = randomBytes(32).toString("hex");
    }
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: apiRoot,
      env,
      stdio: "pipe",
    });
    let output = "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    cleanups.push(async () => {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
    });

    const health = await waitForHealth(`http://127.0.0.1:${env.PORT}/healthz`, child, 30_000).catch(
      (error) => {
        throw new Error(`${error.message}\n${output}`);
      },
    );
    expect(await health.json()).toEqual({ status: "ok" });
    const document = await fetch(`http://127.0.0.1:${env.PORT}/api/v1/openapi.json`);
    expect(document.status).toBe(200);
    // Through auth and the default throttle rates: a wrong password is a 401, not a 500.
    const login = await fetch(`http://127.0.0.1:${env.PORT}/api/token/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.com", password: "wrong" }),
    });
    expect(login.status).toBe(401);
  }, 60_000);
});
