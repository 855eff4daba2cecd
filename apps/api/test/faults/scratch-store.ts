import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, type DatabaseEngine, type DatabaseHandle } from "@allot/db/create-database";
import {
  databaseUrl,
  SNAPSHOT_ENV,
  TEMPLATE_ENV,
  withAdminConnection,
} from "@allot/db/testing/test-databases";
import { TEST_SECRETS_KEYS } from "@allot/domain/testing/test-vault";
import { PGlite } from "@electric-sql/pglite";

/** Where one test's API process keeps its data: a scratch PostgreSQL database or a PGlite data dir. */
export interface ScratchStore {
  engine: DatabaseEngine;
  /** The API process's environment for it. */
  env: Record<string, string>;
  /** The scratch database's name on the PostgreSQL server (for pg_stat_activity); null on PGlite. */
  databaseName: string | null;
  /** A direct connection. On PGlite only while no API process holds the data dir. */
  open(): Promise<DatabaseHandle>;
  dispose(): Promise<void>;
}

/** A migrated copy of the run's template database (PostgreSQL) or snapshot (PGlite). */
export async function createScratchStore(engine: DatabaseEngine): Promise<ScratchStore> {
  const dataDir = await mkdtemp(join(tmpdir(), "allot-faults-"));
  // The processes seal secrets with the tests' key, as the seeding done here does (testVault).
  const env = {
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString("hex"),
    SECRETS_KEY: TEST_SECRETS_KEYS.key,
  };
  if (engine === "pglite") {
    const pgliteDir = join(dataDir, "pglite");
    const snapshot = new Blob([await readFile(required(SNAPSHOT_ENV))]);
    // The first open is the instance that loaded the snapshot: one slow start the fewer.
    let loaded: PGlite | null = await PGlite.create({ dataDir: pgliteDir, loadDataDir: snapshot });
    return {
      engine,
      env,
      databaseName: null,
      open: () => {
        const pglite = loaded;
        loaded = null;
        return createDatabase(pglite ? { pglite } : { dataDir: pgliteDir });
      },
      dispose: async () => {
        await loaded?.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  const serverUrl = required("DATABASE_URL");
  const name = `allot_faults_${randomBytes(5).toString("hex")}`;
  await withAdminConnection(serverUrl, (sql) =>
    sql.unsafe(`create database ${name} template ${required(TEMPLATE_ENV)}`),
  );
  const url = databaseUrl(serverUrl, name);
  return {
    engine,
    env: { ...env, DATABASE_URL: url },
    databaseName: name,
    open: () => createDatabase({ url, maxConnections: 2 }),
    dispose: async () => {
      // `with (force)` ends whatever a killed process left behind.
      await withAdminConnection(serverUrl, (sql) =>
        sql.unsafe(`drop database if exists ${name} with (force)`),
      );
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through the root vitest config`);
  return value;
}
