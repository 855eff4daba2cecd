import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readEnv } from "./env";

describe("cron's readEnv: the key webhook secrets are sealed with", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it("is the server's: SECRETS_KEY, else JWT_SECRET, else on the embedded database the one it generated", async () => {
    const root = await mkdtemp(join(tmpdir(), "allot-cron-env-"));
    dirs.push(root);
    const cron = readEnv({ INIT_CWD: root });
    // Read only when a database is opened: a usage error leaves the data folder alone.
    expect(await readdir(root)).toEqual([]);
    const keys = cron.secrets();
    // The file the server generates its JWT_SECRET into (embeddedJwtSecret, shared by both env.ts).
    const generated = (await readFile(join(root, ".data", "jwt-secret"), "utf8")).trim();
    expect(keys).toEqual({ key: generated, previousKey: null });
    expect(readEnv({ INIT_CWD: root }).secrets()).toEqual(keys);
    const jwt = "j".repeat(40);
    expect(readEnv({ JWT_SECRET: jwt }).secrets()).toEqual({ key: jwt, previousKey: null });
    expect(
      readEnv({ JWT_SECRET: jwt, SECRETS_KEY: "s".repeat(32), SECRETS_KEY_PREVIOUS: jwt }).secrets(),
    ).toEqual({
      key: "s".repeat(32),
      previousKey: jwt,
    });
  });

  it("is required with DATABASE_URL, by the commands that open it", () => {
    const env = readEnv({ DATABASE_URL: "postgres://root@127.0.0.1/x" });
    expect(() => env.secrets()).toThrow(
      /JWT_SECRET \(the API's\) or SECRETS_KEY is required with DATABASE_URL/,
    );
  });
});
