import { rowsOf } from "@allot/db/rows-of";
import { testEngines } from "@allot/db/testing/test-databases";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { seedAccount, seedOwner, seedTransactions } from "./fault-seed";
import { expectLandedMidTransaction, killMidWrite } from "./kill-mid-write";
import { ledgerProblems, ledgerState, storedTransfers } from "./ledger-state";
import { call, login, startTransferStream } from "./transfer-stream";
import { useFaultRun } from "./use-fault-run";

/*
 * SIGKILL of the API process in the middle of a split of the oldest transaction of an account
 * holding 10,000, while a stream of small transfers on another account is being acknowledged. The
 * split's allocations and budget balances are written first, then every later running balance of
 * the budgets it touched (all 10,000 Unallocated allocations) is refreshed: the kill lands on that
 * refresh. After the restart the split must be wholly absent (one allocation, budgets and every
 * running balance as before), every acknowledged transfer present, every ledger consistent; sent
 * again, the split applies. Then a transfer is acknowledged and the process killed at once: a
 * second recovery must keep it.
 */

const STORED = 10_000;
// The running-balance refresh over the three budgets the split touches (a transfer's, from the
// stream, covers two). PostgreSQL shows the first 1 kB of a statement: the list is within it.
const KILL_AT = String.raw`with events as[\s\S]*al\.budget_id in \((\$\d+::uuid, ){2}\$\d+::uuid\)`;

describe.each(testEngines())("SIGKILL in the middle of a split (%s)", (engine) => {
  const run = useFaultRun(engine);

  it("keeps every acknowledged write and none of the interrupted split", async () => {
    const store = await run.store();
    let handle = await store.open();
    const owner = await seedOwner(handle.db);
    const checking = await seedAccount(handle.db, owner, "Checking", { budgets: 2 });
    await seedTransactions(handle.db, checking, STORED);
    const [oldest] = rowsOf<{ id: string; amount: string }>(
      await handle.db.execute(sql`select id, amount::text from transactions
        where bank_account_id = ${checking.id} order by transaction_date, created_at, id limit 1`),
    );
    if (!oldest) throw new Error("no transaction seeded");
    // The seeded oldest row is a debit of 220.81.
    expect(oldest.amount).toBe("-220.81");
    const everyday = await seedAccount(handle.db, owner, "Everyday", { balance: "1000.00", budgets: 1 });
    const before = await ledgerState(handle.db, checking.id);
    await handle.close();

    const [food, fun] = checking.budgetIds as [string, string];
    let api = await run.start(store, KILL_AT);
    const token = await login(api.base, owner.email, owner.password);
    const split = (base: string) =>
      fetch(`${base}/api/v1/transactions/${oldest.id}/splits/`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ splits: { [food]: "100.00", [fun]: "50.00" } }),
      });

    const stream = startTransferStream(api.base, token, everyday);
    run.defer(() => stream.stop());
    await stream.acknowledgedAtLeast(5);
    const evidence = await killMidWrite(store, api, KILL_AT, () => split(api.base));
    await stream.done;
    expectLandedMidTransaction(`[${engine}] split`, evidence, stream.acknowledged.length);
    expect(stream.refused).toEqual([]);
    expect(stream.acknowledged.length).toBeGreaterThanOrEqual(5);

    if (engine === "postgres") {
      // Straight after the kill, before any restart: nothing of the split is there.
      handle = await store.open();
      expect(await ledgerState(handle.db, checking.id)).toEqual(before);
      expect(await storedTransfers(handle.db, stream.acknowledged)).toBe(stream.acknowledged.length);
      // Beside them at most the one transfer in flight at the kill (committed, its answer lost).
      const unanswered = (await ledgerState(handle.db, everyday.id)).transfers - stream.acknowledged.length;
      expect([0, 1]).toContain(unanswered);
      await handle.close();
    }

    // The restarted service recovers the store: the transaction is whole, and the split applies.
    api = await run.start(store);
    const row = await call(api.base, token, "GET", `/transactions/${oldest.id}/`);
    expect(row.status).toBe(200);
    expect(row.body.allocations).toHaveLength(1);
    const response = await split(api.base);
    const allocations = (await response.json()) as { budget: string; amount: string }[];
    expect(response.status, JSON.stringify(allocations).slice(0, 500)).toBe(200);
    expect(allocations.map((a) => [a.budget, a.amount])).toEqual(
      expect.arrayContaining([
        [checking.unallocatedId, "-70.81"],
        [food, "-100.00"],
        [fun, "-50.00"],
      ]),
    );
    expect(allocations).toHaveLength(3);
    // A second kill straight after an acknowledged write with nothing after it: no later write
    // pushes its commit out, no shutdown closes the store. It must be there all the same.
    const last = await call(api.base, token, "POST", "/internal-transactions/", {
      bank_account: everyday.id,
      amount: "1.00",
      src_budget: everyday.unallocatedId,
      dst_budget: everyday.budgetIds[0],
    });
    expect(last.status).toBe(201);
    await api.kill();
    const acknowledged = [...stream.acknowledged, last.body.id as string];

    handle = await store.open();
    run.defer(() => handle.close());
    expect(await ledgerState(handle.db, checking.id)).toMatchObject({
      transactions: before.transactions,
      allocations: before.allocations + 2,
      availableBalance: before.availableBalance,
      budgetTotal: before.budgetTotal,
    });
    expect(await storedTransfers(handle.db, acknowledged)).toBe(acknowledged.length);
    expect(await ledgerProblems(handle.db)).toEqual([]);
  }, 300_000);
});
