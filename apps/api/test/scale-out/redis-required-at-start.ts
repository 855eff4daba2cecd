import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SNAPSHOT_ENV } from "@allot/db/testing/test-databases";
import { PGlite } from "@electric-sql/pglite";
import { afterEach, expect, it } from "vitest";
import { type Defer, freePort, runApiToExit } from "./processes";

/** A REDIS_URL that names no Redis stops the server at start, like an unreachable database. */
export function redisRequiredAtStart() {
  const undo: (() => Promise<unknown>)[] = [];
  const defer: Defer = (step) => undo.push(step);
  afterEach(async () => {
    for (const step of undo.splice(0).reverse()) await step();
  });

  it("refuses to start when REDIS_URL names a Redis it cannot reach", async () => {
    // The embedded database (a copy of the run's migrated snapshot): no PostgreSQL needed.
    const dataDir = await mkdtemp(join(tmpdir(), "allot-redis-start-"));
    defer(() => rm(dataDir, { recursive: true, force: true }));
    const snapshot = new Blob([await readFile(process.env[SNAPSHOT_ENV] as string)]);
    await (await PGlite.create({ dataDir: join(dataDir, "pglite"), loadDataDir: snapshot })).close();

    const redisUrl = `redis://:not-a-secret@127.0.0.1:${await freePort()}`;
    const server = runApiToExit(
      { DATA_DIR: dataDir, PORT: String(await freePort()), REDIS_URL: redisUrl, SCHEDULER: "off" },
      defer,
    );
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(
      /Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ \(REDIS_URL\) is unreachable/,
    );
    expect(server.output()).not.toContain("not-a-secret");
  }, 240_000);
}
