import { databaseUrl, withAdminConnection } from "@allot/db/testing/test-databases";
import { expect } from "vitest";
import type { ApiProcess } from "./api-process";
import { pendingAnswer } from "./pending-answer";
import type { ScratchStore } from "./scratch-store";

/** Where a SIGKILL landed, as the database (PostgreSQL) or the frozen process (PGlite) showed it. */
export interface KillEvidence {
  /** The statement the kill landed on: running (or just run, the transaction still open) or next. */
  statement: string;
  /** PostgreSQL: the backend's state when it was killed (`active` / `idle in transaction`). */
  backendState: string | null;
  /** PostgreSQL: the interrupted transaction's fate once its backend was gone (`aborted`). */
  transactionStatus: string | null;
  /** PGlite: whether the engine was inside a transaction block at the freeze. */
  inTransaction: boolean | null;
  /** What the client got: an error (the connection died), never a status. */
  response: string;
  /** ms from sending the request to the kill. */
  afterMs: number;
}

const POLL_TIMEOUT_MS = 120_000;

/**
 * Sends `request` and SIGKILLs the API process while the request's database transaction is open,
 * at the first statement matching `statement` (a case-insensitive RegExp source; it must be one the
 * transaction runs after some of its writes). PostgreSQL: pg_stat_activity of the scratch database is
 * polled for a backend holding a transaction id (it has written) whose current or last statement
 * matches; the kill follows at once, and once the backend is gone pg_xact_status tells the
 * transaction's fate. PGlite: the process was started with `freezeAt: statement` and stops before
 * that statement; the kill follows its `FAULT-FROZEN` line.
 */
export async function killMidWrite(
  store: ScratchStore,
  api: ApiProcess,
  statement: string,
  request: () => Promise<Response>,
): Promise<KillEvidence> {
  const started = performance.now();
  const { answer, settled } = pendingAnswer(request);
  const tooLate = () => {
    if (settled()) throw new Error(`the request finished before the kill point /${statement}/: ${settled()}`);
  };
  if (store.databaseName === null) {
    const frozen = await waitForFreeze(api, tooLate);
    const afterMs = performance.now() - started;
    await api.kill();
    return { ...frozen, backendState: null, transactionStatus: null, response: await answer, afterMs };
  }
  const url = databaseUrl(store.env.DATABASE_URL as string, store.databaseName);
  return withAdminConnection(url, async (sql) => {
    const pattern = new RegExp(statement, "i");
    const deadline = Date.now() + POLL_TIMEOUT_MS;
    for (;;) {
      const rows = await sql<{ pid: number; state: string; xid: string; query: string }[]>`
        select pid, state, backend_xid::text as xid, query from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_xid is not null
          and state in ('active', 'idle in transaction')`;
      const hit = rows.find((row) => pattern.test(row.query));
      if (hit) {
        const afterMs = performance.now() - started;
        await api.kill();
        const response = await answer;
        // The backend ends the transaction when it finds its client gone (at its next read or write).
        while ((await sql`select 1 from pg_stat_activity where pid = ${hit.pid}`).length > 0) {
          if (Date.now() > deadline) throw new Error(`backend ${hit.pid} outlived its client`);
          await new Promise((r) => setTimeout(r, 20));
        }
        // backend_xid is the 32-bit xid; pg_xact_status takes it with the current epoch.
        const [fate] = await sql<{ status: string }[]>`
          select pg_xact_status((((pg_snapshot_xmin(pg_current_snapshot())::text::bigint >> 32) << 32)
            + ${hit.xid}::bigint)::text::xid8) as status`;
        return {
          statement: oneLine(hit.query.slice(pattern.exec(hit.query)?.index ?? 0)),
          backendState: hit.state,
          transactionStatus: fate?.status ?? null,
          inTransaction: null,
          response,
          afterMs,
        };
      }
      tooLate();
      if (Date.now() > deadline) throw new Error(`no backend reached /${statement}/`);
      await new Promise((r) => setTimeout(r, 3));
    }
  });
}

async function waitForFreeze(api: ApiProcess, tooLate: () => void) {
  const deadline = Date.now() + POLL_TIMEOUT_MS;
  for (;;) {
    const line = api
      .output()
      .split("\n")
      .find((l) => l.startsWith("FAULT-FROZEN "));
    if (line) {
      const { inTransaction, at } = JSON.parse(line.slice("FAULT-FROZEN ".length)) as {
        inTransaction: boolean;
        at: string;
      };
      return { statement: at, inTransaction };
    }
    tooLate();
    if (Date.now() > deadline) throw new Error("the process never froze");
    await new Promise((r) => setTimeout(r, 5));
  }
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 80);

/**
 * The kill landed inside the write's transaction: the client got no answer, and the transaction
 * had written but never committed (PostgreSQL: its transaction id ended aborted; PGlite: the engine
 * was in a transaction block when the process froze). Logs where it landed.
 */
export function expectLandedMidTransaction(what: string, evidence: KillEvidence, acknowledged: number) {
  console.info(
    `${what}: SIGKILL ${Math.round(evidence.afterMs)} ms after sending, at "${evidence.statement}" ` +
      (evidence.backendState === null
        ? `(process frozen, in a transaction: ${evidence.inTransaction})`
        : `(backend ${evidence.backendState}; transaction then ${evidence.transactionStatus})`) +
      `; ${acknowledged} transfers acknowledged before; client: ${evidence.response}`,
  );
  expect(evidence.response).toMatch(/^no response/);
  if (evidence.backendState === null) expect(evidence.inTransaction).toBe(true);
  else expect(evidence.transactionStatus).toBe("aborted");
}
