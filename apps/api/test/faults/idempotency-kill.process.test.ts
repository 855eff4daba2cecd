import type { Database } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { databaseUrl, testEngines, withAdminConnection } from "@allot/db/testing/test-databases";
import { testVault } from "@allot/domain/testing/test-vault";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startApiProcess } from "./api-process";
import { type SeededAccount, seedAccount, seedOwner } from "./fault-seed";
import { killBeforeResponse } from "./kill-before-response";
import { expectLandedMidTransaction, killMidWrite } from "./kill-mid-write";
import { ledgerProblems, ledgerState } from "./ledger-state";
import type { ScratchStore } from "./scratch-store";
import { login } from "./transfer-stream";
import { useFaultRun } from "./use-fault-run";

/*
 * docs/spec/extensions.md §1 across a SIGKILL of the API process: a keyed transfer (POST
 * /internal-transactions/, which moves money) killed on either side of its commit, then retried
 * with the same key against the restarted process on the same data.
 * (a) Before the commit: the transfer is written and its idempotency record is being inserted, the
 *     transaction still open. Nothing commits, so the retry runs the transfer (not replayed), once.
 *     PGlite: the process freezes before the record's INSERT reaches the engine. PostgreSQL: the test
 *     holds a SHARE lock on idempotency_keys, so that INSERT waits (an active backend that has
 *     written) until the process is dead; then its transaction ends aborted.
 * (b) After the commit, before the answer: transfer and record committed together and the client
 *     got nothing. The retry replays the answer (Idempotent-Replayed: true) that the dead process
 *     was about to write, and runs nothing. No statement follows the commit on the way to the answer,
 *     so on both engines the process freezes (freeze-before-response.mjs) just before it hands the
 *     socket the transfer's 201; on PostgreSQL another session sees the record committed meanwhile.
 * Each amount moves exactly once, however often its key is sent.
 */

const BEFORE_COMMIT = { key: "idem-kill-before-commit", amount: "12.34" };
const AFTER_COMMIT = { key: "idem-kill-after-commit", amount: "56.78" };
// The last statement of a keyed write's transaction before its COMMIT.
const RECORD_INSERT = 'insert into "idempotency_keys"';
// In the process of case (b), the only 201 is the keyed transfer's.
const CREATED = String.raw`^HTTP/1\.1 201 `;

describe.each(testEngines())("SIGKILL of a keyed transfer around its commit (%s)", (engine) => {
  const run = useFaultRun(engine);

  it("runs the retry once when killed before the commit, and replays the answer when killed after", async () => {
    const store = await run.store();
    let handle = await store.open();
    const owner = await seedOwner(handle.db);
    const account = await seedAccount(handle.db, owner, "Everyday", { balance: "1000.00", budgets: 2 });
    const before = await ledgerState(handle.db, account.id);
    expect(await balancesOf(handle.db, account)).toEqual(["1000.00", "0.00", "0.00"]);
    await handle.close();
    const [toA, toB] = account.budgetIds as [string, string];
    let token = "";
    const transfer = (base: string, sent: typeof BEFORE_COMMIT, budget: string) =>
      fetch(`${base}/api/v1/internal-transactions/`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "idempotency-key": sent.key,
        },
        body: JSON.stringify({
          bank_account: account.id,
          amount: sent.amount,
          src_budget: account.unallocatedId,
          dst_budget: budget,
        }),
      });
    const transferA = (base: string) => transfer(base, BEFORE_COMMIT, toA);
    const transferB = (base: string) => transfer(base, AFTER_COMMIT, toB);

    // (a) Killed before the commit.
    const first = await run.start(store, RECORD_INSERT);
    token = await login(first.base, owner.email, owner.password);
    if (engine === "postgres") {
      const release = await holdRecordInserts(store);
      run.defer(release);
      first.child.once("exit", () => void release());
    }
    const killedBefore = await killMidWrite(store, first, RECORD_INSERT, () => transferA(first.base));
    expectLandedMidTransaction(`[${engine}] keyed transfer, before its commit`, killedBefore, 0);

    // (b) Killed after the commit, before the answer.
    const second = await startApiProcess(store.env, { freezeResponse: CREATED });
    run.defer(() => second.kill());
    let seenCommitted: string[] = [];
    const killedAfter = await killBeforeResponse(
      second,
      () => transferB(second.base),
      engine === "postgres"
        ? async () => {
            seenCommitted = await committedKeys(store);
          }
        : undefined,
    );
    console.info(
      `[${engine}] keyed transfer, after its commit: SIGKILL with "${killedAfter.statusLine}" unsent ` +
        `(frozen ${Math.round(killedAfter.afterMs)} ms after sending; records another session saw ` +
        `committed meanwhile: ${engine === "postgres" ? JSON.stringify(seenCommitted) : "n/a, embedded"}); ` +
        `client: ${killedAfter.response}`,
    );
    expect(killedAfter.response).toMatch(/^no response/);
    expect(killedAfter.statusLine).toBe("HTTP/1.1 201 Created");
    const unsent = JSON.parse(killedAfter.body) as Record<string, string>;
    expect(unsent).toMatchObject({ amount: AFTER_COMMIT.amount, dst_budget: toB });
    if (engine === "postgres") expect(seenCommitted).toEqual([AFTER_COMMIT.key]);

    // Between the kills and the restart: (a) left nothing, (b) its transfer and its record.
    handle = await store.open();
    expect(await transfersOf(handle.db, account)).toEqual([
      { id: unsent.id, amount: AFTER_COMMIT.amount, dst: toB },
    ]);
    expect(await recordsOf(handle.db)).toEqual([{ key: AFTER_COMMIT.key, status: 201, body: unsent }]);
    expect(await balancesOf(handle.db, account)).toEqual(moved(["0.00", AFTER_COMMIT.amount]));
    await handle.close();

    // The restarted process: (b) replays the unsent answer; (a) runs once, then replays too.
    const api = await run.start(store);
    const retryB = await transferB(api.base);
    const replayedB = (await retryB.json()) as Record<string, string>;
    console.info(
      `[${engine}] retry of (b): HTTP ${retryB.status}, Idempotent-Replayed: ` +
        `${retryB.headers.get("idempotent-replayed")}, id ${replayedB.id} (unsent answer's: ${unsent.id})`,
    );
    expect(retryB.status, JSON.stringify(replayedB)).toBe(201);
    expect(retryB.headers.get("idempotent-replayed")).toBe("true");
    expect(replayedB).toEqual(unsent);

    const retryA = await transferA(api.base);
    const ranA = (await retryA.json()) as Record<string, string>;
    console.info(
      `[${engine}] retry of (a): HTTP ${retryA.status}, Idempotent-Replayed: ` +
        `${retryA.headers.get("idempotent-replayed")}, id ${ranA.id}, ${ranA.dst_budget_balance} in its budget`,
    );
    expect(retryA.status, JSON.stringify(ranA)).toBe(201);
    expect(retryA.headers.get("idempotent-replayed")).toBeNull();
    expect(ranA).toMatchObject({
      amount: BEFORE_COMMIT.amount,
      dst_budget: toA,
      dst_budget_balance: BEFORE_COMMIT.amount,
    });
    const againA = await transferA(api.base);
    expect(againA.headers.get("idempotent-replayed")).toBe("true");
    expect(await againA.json()).toEqual(ranA);
    expect(await api.stop()).toBe(0);

    // Each amount moved exactly once; the ledger agrees with itself.
    handle = await store.open();
    run.defer(() => handle.close());
    expect(await transfersOf(handle.db, account)).toEqual(
      expect.arrayContaining([
        { id: unsent.id, amount: AFTER_COMMIT.amount, dst: toB },
        { id: ranA.id, amount: BEFORE_COMMIT.amount, dst: toA },
      ]),
    );
    expect(await ledgerState(handle.db, account.id)).toMatchObject({
      transfers: before.transfers + 2,
      availableBalance: before.availableBalance,
      budgetTotal: before.budgetTotal,
    });
    expect(await balancesOf(handle.db, account)).toEqual(moved([BEFORE_COMMIT.amount, AFTER_COMMIT.amount]));
    expect(await recordsOf(handle.db)).toEqual([
      { key: AFTER_COMMIT.key, status: 201, body: unsent },
      { key: BEFORE_COMMIT.key, status: 201, body: ranA },
    ]);
    expect(await ledgerProblems(handle.db)).toEqual([]);
  }, 180_000);
});

/**
 * PostgreSQL: a SHARE lock on idempotency_keys from another session, so a keyed write's record
 * INSERT waits (its transfer written, its transaction open) until the returned release.
 */
async function holdRecordInserts(store: ScratchStore): Promise<() => Promise<void>> {
  const url = databaseUrl(store.env.DATABASE_URL as string, store.databaseName as string);
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const held = withAdminConnection(url, (admin) =>
    admin.begin(async (tx) => {
      await tx`lock table idempotency_keys in share mode`;
      locked();
      await released;
    }),
  );
  await Promise.race([isLocked, held]);
  return async () => {
    release();
    await held;
  };
}

/** PostgreSQL: the keys whose records another session sees, i.e. committed. */
async function committedKeys(store: ScratchStore): Promise<string[]> {
  const url = databaseUrl(store.env.DATABASE_URL as string, store.databaseName as string);
  return withAdminConnection(url, async (admin) =>
    (await admin<{ key: string }[]>`select key from idempotency_keys order by key`).map((row) => row.key),
  );
}

async function transfersOf(db: Database, account: SeededAccount) {
  return rowsOf<{ id: string; amount: string; dst: string }>(
    await db.execute(sql`select id, amount::text as amount, dst_budget_id as dst
      from internal_transactions where bank_account_id = ${account.id} order by created_at, id`),
  );
}

/** The records, their answers opened with the server process's key (the store's SECRETS_KEY). */
async function recordsOf(db: Database) {
  const rows = rowsOf<{ key: string; status: number; body: string }>(
    await db.execute(sql`select key, status, body from idempotency_keys order by key`),
  );
  return rows.map((row) => ({ ...row, body: JSON.parse(testVault.open("idempotency-answer", row.body)) }));
}

/** Unallocated's balance, then each plain budget's. */
async function balancesOf(db: Database, account: SeededAccount) {
  const ids = [account.unallocatedId, ...account.budgetIds];
  const rows = rowsOf<{ id: string; balance: string }>(
    await db.execute(
      sql`select id, balance::text as balance from budgets where bank_account_id = ${account.id}`,
    ),
  );
  return ids.map((id) => rows.find((row) => row.id === id)?.balance);
}

/** The balances after moving `amounts` from Unallocated (1,000.00) into the plain budgets. */
function moved(amounts: string[]) {
  const cents = (money: string) => Math.round(Number(money) * 100);
  const left = 100_000 - amounts.reduce((sum, amount) => sum + cents(amount), 0);
  return [(left / 100).toFixed(2), ...amounts];
}
