import { mkdir } from "node:fs/promises";
import { createDatabase, type Database } from "@allot/db/create-database";
import type { CliEnv } from "./env";

/**
 * Opens the server's database (PostgreSQL at DATABASE_URL, else the embedded one in DATA_DIR),
 * brings it up to date, runs the work and closes it: admin commands work on a fresh data folder.
 */
export async function withMigratedDatabase<T>(env: CliEnv, work: (db: Database) => Promise<T>): Promise<T> {
  // PGlite makes its own folder but not the parents (a fresh DATA_DIR).
  if ("dataDir" in env.database) await mkdir(env.database.dataDir, { recursive: true });
  const database = await createDatabase(env.database);
  try {
    await database.migrate();
    return await work(database.db);
  } finally {
    await database.close();
  }
}
