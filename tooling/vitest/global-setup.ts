import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDatabase } from "@allot/db/create-database";
import {
  databaseUrl,
  SNAPSHOT_ENV,
  TEMPLATE_ENV,
  withAdminConnection,
} from "@allot/db/testing/test-databases";
import { PGlite } from "@electric-sql/pglite";

const BUILD_CLI = fileURLToPath(new URL("../../apps/cli/scripts/build.mjs", import.meta.url));
const BUILD_API = fileURLToPath(new URL("../../apps/api/scripts/build.mjs", import.meta.url));

/**
 * Builds the `allot` bundle the CLI tests run and the API server the process tests start (a few
 * seconds), and migrates once per run: a PGlite data dir snapshot that each test file clones, and,
 * with DATABASE_URL, a template database each test file copies with CREATE DATABASE … TEMPLATE.
 */
export default async function setup() {
  execFileSync(process.execPath, [BUILD_CLI], { stdio: "inherit" });
  execFileSync(process.execPath, [BUILD_API], { stdio: "inherit" });
  const snapshotPath = join(tmpdir(), `allot-pglite-${process.pid}.tar`);
  const pglite = await PGlite.create();
  const embedded = await createDatabase({ pglite });
  await embedded.migrate();
  await writeFile(snapshotPath, Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer()));
  await embedded.close();
  process.env[SNAPSHOT_ENV] = snapshotPath;

  const serverUrl = process.env.DATABASE_URL;
  const template = `allot_template_${randomBytes(4).toString("hex")}`;
  if (serverUrl) {
    await withAdminConnection(serverUrl, (sql) => sql.unsafe(`create database ${template}`));
    const server = await createDatabase({ url: databaseUrl(serverUrl, template), maxConnections: 1 });
    await server.migrate();
    await server.close();
    process.env[TEMPLATE_ENV] = template;
  }

  return async () => {
    await rm(snapshotPath, { force: true });
    if (serverUrl) {
      await withAdminConnection(serverUrl, (sql) =>
        sql.unsafe(`drop database if exists ${template} with (force)`),
      );
    }
  };
}
