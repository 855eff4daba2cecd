import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { createDatabase, type DatabaseEngine, type DatabaseHandle } from "../../src/create-database";

// Set by tooling/vitest/global-setup.ts, which migrates one database per engine for the whole run.
export const SNAPSHOT_ENV = "ALLOT_TEST_PGLITE_SNAPSHOT";
export const TEMPLATE_ENV = "ALLOT_TEST_PG_TEMPLATE";

/** The engines every database test runs on: PGlite always, PostgreSQL when DATABASE_URL is set. */
export function testEngines(): DatabaseEngine[] {
  return process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}

/** A freshly migrated database of its own; `close()` disposes of it (and drops it on PostgreSQL). */
export async function openTestDatabase(engine: DatabaseEngine): Promise<DatabaseHandle> {
  if (engine === "pglite") {
    const snapshot = process.env[SNAPSHOT_ENV];
    if (!snapshot) throw new Error(`${SNAPSHOT_ENV} is not set: run tests through the root vitest config`);
    const pglite = await PGlite.create({ loadDataDir: new Blob([await readFile(snapshot)]) });
    return createDatabase({ pglite });
  }
  const serverUrl = requiredEnv("DATABASE_URL");
  const template = requiredEnv(TEMPLATE_ENV);
  const name = `allot_test_${randomBytes(6).toString("hex")}`;
  await withAdminConnection(serverUrl, (sql) => sql.unsafe(`create database ${name} template ${template}`));
  const handle = await createDatabase({ url: databaseUrl(serverUrl, name), maxConnections: 12 });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await withAdminConnection(serverUrl, (sql) =>
        sql.unsafe(`drop database if exists ${name} with (force)`),
      );
    },
  };
}

export function databaseUrl(serverUrl: string, databaseName: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

export async function withAdminConnection<T>(serverUrl: string, work: (sql: postgres.Sql) => Promise<T>) {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    return await work(sql);
  } finally {
    await sql.end();
  }
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
