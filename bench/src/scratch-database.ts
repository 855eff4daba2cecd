import { randomBytes } from "node:crypto";
import { createDatabase } from "@allot/db/create-database";
import { databaseUrl, withAdminConnection } from "@allot/db/testing/test-databases";
import type { Defer } from "./defer";

/**
 * A new, migrated database on the given server, so a run never touches anyone's data. Its drop is
 * deferred before it is created, so an interrupt at any point still removes it.
 */
export async function createScratchDatabase(serverUrl: string, defer: Defer): Promise<string> {
  const name = `allot_bench_${randomBytes(6).toString("hex")}`;
  // `with (force)` ends connections a killed server may have left behind.
  defer(() =>
    withAdminConnection(serverUrl, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`)),
  );
  await withAdminConnection(serverUrl, (sql) => sql.unsafe(`create database ${name}`));
  const url = databaseUrl(serverUrl, name);
  const handle = await createDatabase({ url, maxConnections: 1 });
  try {
    await handle.migrate();
  } finally {
    await handle.close();
  }
  return url;
}
