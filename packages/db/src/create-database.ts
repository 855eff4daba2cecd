import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { lockEmbeddedDatabase } from "./embedded-database-lock";
import { retryingConflicts } from "./retry-conflicts";
import * as schema from "./schema/index";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The handle a use case works with inside `db.transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type DatabaseEngine = "pglite" | "postgres";

export interface DatabaseHandle {
  db: Database;
  engine: DatabaseEngine;
  /** Applies the committed migrations; safe to call from several processes at once. */
  migrate(): Promise<void>;
  /** Runs a trivial query; used by /healthz. */
  ping(): Promise<void>;
  /**
   * Calls `onNotify` for every NOTIFY on `channel` (sent by any process, delivered at its commit);
   * resolves once listening, to the function that stops it.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { url: string; maxConnections?: number }
  | { dataDir: string }
  | { pglite: PGlite };

const migrationsFolder = fileURLToPath(new URL("../drizzle", import.meta.url));
// Arbitrary constant: serialises migrations across processes sharing one PostgreSQL server.
const MIGRATION_LOCK_ID = 4_216_001;

/**
 * Opens the database. A data folder (`dataDir`) is first locked for this process (see
 * embedded-database-lock.ts; `command` names the process in the lock file) and released on close;
 * an already open PGlite (`pglite`: the tests' in-memory copies) takes no lock.
 */
export async function createDatabase(
  options: DatabaseOptions,
  command = basename(process.argv[1] ?? "node"),
): Promise<DatabaseHandle> {
  if ("url" in options) return openPostgres(options.url, options.maxConnections ?? 10);
  if ("pglite" in options) return pgliteHandle(options.pglite, () => {});
  const lock = lockEmbeddedDatabase(options.dataDir, command);
  try {
    return pgliteHandle(await PGlite.create(options.dataDir), lock.release);
  } catch (error) {
    lock.release();
    throw error;
  }
}

function pgliteHandle(client: PGlite, afterClose: () => void): DatabaseHandle {
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db: retryingConflicts(db),
    engine: "pglite",
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    ping: async () => {
      await client.query("select 1");
    },
    listen: (channel, onNotify) => client.listen(channel, onNotify),
    // A close that fails keeps the lock: the exit releases it, not before this process is gone.
    close: async () => {
      await client.close();
      afterClose();
    },
  };
}

function openPostgres(url: string, maxConnections: number): DatabaseHandle {
  const client = postgres(url, {
    max: maxConnections,
    onnotice: () => {},
    // postgres.js waits up to 20 s between reconnects once connections have failed (the wait
    // grows with every failure, across the pool), so after a database restart requests hung for
    // that long. Try again within a second instead, and give up on a silent server after 10 s:
    // while the database is away requests fail quickly (503) and recover as soon as it is back.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
    connect_timeout: 10,
    // A process that dies with its host sends PostgreSQL no close: without this, its open
    // transaction would hold the account's locks until TCP keepalive gave up, hours later.
    connection: { idle_in_transaction_session_timeout: 60_000 },
  });
  const db = drizzlePostgres(withPreparedStatements(client), { schema }) as unknown as Database;
  return {
    db: retryingConflicts(db),
    engine: "postgres",
    migrate: async () => {
      const lockClient = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await lockClient`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
        await migratePostgres(drizzlePostgres(lockClient), { migrationsFolder });
        await lockClient`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
      } finally {
        await lockClient.end();
      }
    },
    ping: async () => {
      await client`select 1`;
    },
    // postgres.js listens on a connection of its own (outside the pool), reconnecting as needed.
    listen: async (channel, onNotify) => {
      const { unlisten } = await client.listen(channel, onNotify);
      return unlisten;
    },
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * drizzle sends every query through `unsafe(…, { prepare: false })`, so PostgreSQL parses and plans
 * each one afresh. postgres.js prepares (and caches per connection, by text) when asked: asking for
 * every query outside a transaction roughly halves the server's work on the hot read paths.
 */
function withPreparedStatements(client: postgres.Sql): postgres.Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== "unsafe") return Reflect.get(target, property, receiver);
      return (query: string, args?: unknown[], options?: Record<string, unknown>) =>
        target.unsafe(query, args as never, { ...options, prepare: true });
    },
  });
}
