import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Database } from "@allot/db/create-database";
import * as schema from "@allot/db/schema/index";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";

/** Clocks read together: wall time, this process's CPU time, the connection's backend's CPU time. */
export interface Sample {
  /** performance.now(), ms. */
  at: number;
  /** User + system CPU of this process (every thread), ms. */
  benchCpuMs: number;
  /** User + system CPU of the PostgreSQL backend serving the connection, ms; null when unreadable. */
  serverCpuMs: number | null;
}

export interface SentStatement extends Sample {
  text: string;
  /** A statement with parameters, sent unprepared, takes postgres.js two exchanges (see below). */
  parameters: number;
}

export interface CountingDatabase {
  db: Database;
  /** Every statement sent since the last `reset()`, BEGIN and COMMIT included, with the clocks at its send. */
  sent: SentStatement[];
  reset(): void;
  sample(): Sample;
  close(): Promise<void>;
}

/**
 * A drizzle handle on PostgreSQL built as createDatabase builds it (postgres.js, the full schema),
 * on one connection, whose client records every statement through postgres.js's `debug` hook —
 * called once per statement it sends, BEGIN and COMMIT included. createDatabase also asks for
 * prepared statements outside transactions; a use case's statements all run inside its
 * transaction, where drizzle sends them unprepared either way, so the engine sends the very same
 * statements here as in the API. Unprepared, a statement with parameters costs two network
 * exchanges (Parse/Describe/Flush, then Bind/Execute/Sync once the parameter types are back); one
 * without, a single exchange. The connection is opened (and postgres.js's type lookup done) before
 * this resolves, so nothing of that is counted.
 *
 * Each statement also notes the CPU time spent so far by this process and by the connection's
 * PostgreSQL backend (from /proc, when the server runs on this machine), so a run slowed by other
 * work on a busy machine still shows what its own parts cost.
 */
export async function openCountingDatabase(url: string): Promise<CountingDatabase> {
  const sent: SentStatement[] = [];
  let serverCpu = (): number | null => null;
  const sample = (): Sample => {
    const cpu = process.cpuUsage();
    return { at: performance.now(), benchCpuMs: (cpu.user + cpu.system) / 1000, serverCpuMs: serverCpu() };
  };
  const client = postgres(url, {
    max: 1,
    onnotice: () => {},
    debug: (_connection, text, parameters) => {
      sent.push({ ...sample(), text, parameters: parameters.length });
    },
  });
  const db = drizzle(client, { schema }) as unknown as Database;
  const [backend] = await client<{ pid: number }[]>`select pg_backend_pid() as pid`;
  if (backend && isLocal(url)) serverCpu = backendCpu(backend.pid);
  return {
    db,
    sent,
    reset: () => {
      sent.length = 0;
    },
    sample,
    close: () => client.end({ timeout: 5 }),
  };
}

/** Network exchanges of these statements (see openCountingDatabase). */
export const exchangesOf = (statements: SentStatement[]) =>
  statements.reduce((sum, statement) => sum + (statement.parameters > 0 ? 2 : 1), 0);

const isLocal = (url: string) => ["127.0.0.1", "localhost", "[::1]"].includes(new URL(url).hostname);

/** A reader of a local PostgreSQL backend's CPU time (utime + stime), or one answering null. */
function backendCpu(pid: number): () => number | null {
  const path = `/proc/${pid}/stat`;
  try {
    if (!readFileSync(`/proc/${pid}/comm`, "utf8").startsWith("postgres")) return () => null;
    const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
    if (!(ticksPerSecond > 0)) return () => null;
    return () => {
      // Fields after the parenthesised command name; utime and stime are the 14th and 15th.
      const stat = readFileSync(path, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
    };
  } catch {
    return () => null;
  }
}
