import { mkdir } from "node:fs/promises";
import { createDatabase, type Database } from "@allot/db/create-database";
import { EmbeddedDatabaseInUse, embeddedDatabaseHolder } from "@allot/db/embedded-database-lock";
import type { CliEnv } from "./env";

/**
 * Opens the server's database (PostgreSQL at DATABASE_URL, else the embedded one in DATA_DIR),
 * brings it up to date, runs the work and closes it: admin commands work on a fresh data folder.
 * The embedded database is refused while another process (the server) has it: `command` is what
 * the lock file names this one.
 */
export async function withMigratedDatabase<T>(
  env: CliEnv,
  command: string,
  work: (db: Database) => Promise<T>,
): Promise<T> {
  // PGlite makes its own folder but not the parents (a fresh DATA_DIR).
  if ("dataDir" in env.database) await mkdir(env.database.dataDir, { recursive: true });
  const database = await createDatabase(env.database, command);
  try {
    await database.migrate();
    return await work(database.db);
  } finally {
    await database.close();
  }
}

/** Refuses before asking anything (a password) when the embedded database is in use. */
export function refuseIfDatabaseInUse(env: CliEnv): void {
  if (!("dataDir" in env.database)) return;
  const holder = embeddedDatabaseHolder(env.database.dataDir);
  if (holder) throw new EmbeddedDatabaseInUse(env.database.dataDir, holder);
}
