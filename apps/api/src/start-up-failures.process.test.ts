import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { databaseUrl, testEngines, withAdminConnection } from "@allot/db/testing/test-databases";
import { afterEach, describe, expect, it } from "vitest";
import { RUN_BUILT_SERVER } from "../test/testing/built-server";

const apiRoot = fileURLToPath(new URL("..", import.meta.url));
const JWT_SECRET = randomBytes(32).toString("hex");

/** A port nothing listens on (the probe is closed again), or one held by `holder` if given. */
async function portOf(holder?: Server): Promise<number> {
  const server = holder ?? createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  if (!holder) await new Promise((resolve) => server.close(resolve));
  return address.port;
}

/** The built server, as `pnpm start` runs it, with these variables only, until it exits. */
function startToExit(env: Record<string, string>, nodeOptions: string[] = []) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "info", ...env };
  for (const name of ["DATABASE_URL", "JWT_SECRET", "REDIS_URL", "SCHEDULER"])
    if (!(name in env)) delete childEnv[name];
  const child = spawn(RUN_BUILT_SERVER, nodeOptions, { cwd: apiRoot, env: childEnv, stdio: "pipe" });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    // A server that starts after all is stopped, and the test fails on its exit code.
    const started = setInterval(() => {
      if (stdout.includes("Server listening")) child.kill("SIGTERM");
    }, 100);
    child.on("close", (code) => {
      clearInterval(started);
      resolve({ code, stdout, stderr });
    });
  });
}

/** One or two plain lines naming the variable: no stack, no excerpt of the bundle's code. */
function expectPlainFailure(run: { code: number | null; stderr: string }, variable: string) {
  expect(run.code, run.stderr).not.toBe(0);
  expect(run.code, run.stderr).not.toBeNull();
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines.length, run.stderr).toBeLessThanOrEqual(2);
  expect(run.stderr).toContain(variable);
  expect(run.stderr).not.toMatch(/function|=>|\bat .*:\d+:\d+|main\.js/);
  for (const line of lines) expect(line.length, line).toBeLessThan(300);
}

describe("the server's start-up failures, before any database is opened", () => {
  const folders: string[] = [];
  afterEach(async () => {
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
  });
  const dataDir = async () => {
    const folder = await mkdtemp(join(tmpdir(), "allot-start-"));
    folders.push(folder);
    return folder;
  };

  it("names JWT_SECRET when DATABASE_URL is set without it", async () => {
    const run = await startToExit({ DATABASE_URL: "postgres://root@127.0.0.1:5432/allot" });
    expectPlainFailure(run, "JWT_SECRET");
  }, 60_000);

  it("names a variable whose value is wrong, without repeating the value", async () => {
    const run = await startToExit({ DATA_DIR: await dataDir(), PORT: "99999" });
    expectPlainFailure(run, "PORT");
    const format = await startToExit({ DATA_DIR: await dataDir(), LOG_FORMAT: "fancy-s3cret" });
    expectPlainFailure(format, "LOG_FORMAT");
    expect(format.stderr).not.toContain("fancy-s3cret");
  }, 60_000);

  it("names DATA_DIR when the embedded database's folder cannot be made", async () => {
    const file = join(await dataDir(), "a-file");
    await writeFile(file, "");
    const run = await startToExit({ DATA_DIR: join(file, "data") });
    expectPlainFailure(run, "DATA_DIR");
    expect(run.stderr).toContain("ENOTDIR");
  }, 60_000);

  it("prints a real crash with its stack led back to the TypeScript sources", async () => {
    // A preload breaks what the start calls first (the logger stamps each line with its time):
    // not a setting anyone can fix, so the whole stack is printed, mapped through main.js.map.
    const folder = await dataDir();
    const preload = join(folder, "broken-clock.mjs");
    await writeFile(preload, 'Date.prototype.toISOString = () => { throw new Error("the clock broke"); };\n');
    const run = await startToExit({ DATA_DIR: join(folder, "data") }, ["--import", preload]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/^Error: the clock broke\n/);
    expect(run.stderr).toMatch(/at createLogger \(\S+\/packages\/logging\/src\/create-logger\.ts:\d+:\d+\)/);
    expect(run.stderr).toMatch(/at start \(\S+\/apps\/api\/src\/main\.ts:\d+:\d+\)/);
    expect(run.stderr).not.toContain("main.js");
  }, 60_000);

  it("names DATABASE_URL when its server cannot be reached, without its password", async () => {
    const run = await startToExit({
      DATABASE_URL: `postgres://allot:db-pa55word@127.0.0.1:${await portOf()}/allot`,
      JWT_SECRET,
    });
    expectPlainFailure(run, "DATABASE_URL");
    expect(run.stderr).not.toContain("db-pa55word");
  }, 60_000);
});

describe.each(testEngines())("the server's start-up failures, once the database is open (%s)", (engine) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** The variables of a server on a scratch database of the engine's. */
  async function databaseEnv(): Promise<Record<string, string>> {
    const folder = await mkdtemp(join(tmpdir(), "allot-start-"));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    if (engine !== "postgres") return { DATA_DIR: folder };
    const serverUrl = process.env.DATABASE_URL as string;
    const name = `allot_start_${randomBytes(4).toString("hex")}`;
    await withAdminConnection(serverUrl, (sql) => sql.unsafe(`create database ${name}`));
    cleanups.push(() =>
      withAdminConnection(serverUrl, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`)),
    );
    return { DATA_DIR: folder, DATABASE_URL: databaseUrl(serverUrl, name), JWT_SECRET };
  }

  it("names REDIS_URL when Redis cannot be reached, and PORT when the port is taken", async () => {
    const env = await databaseEnv();
    const redis = await startToExit({ ...env, REDIS_URL: `redis://:redis-pa55@127.0.0.1:${await portOf()}` });
    expectPlainFailure(redis, "REDIS_URL");
    expect(redis.stderr).not.toContain("redis-pa55");

    const holder = createServer();
    cleanups.push(() => new Promise((resolve) => holder.close(resolve)));
    const taken = await startToExit({ ...env, PORT: String(await portOf(holder)) });
    expectPlainFailure(taken, "PORT");
  }, 240_000);
});
