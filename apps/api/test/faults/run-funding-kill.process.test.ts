import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { seedAccount, seedFundingBudgets, seedOwner } from "./fault-seed";
import { expectLandedMidTransaction, killMidWrite } from "./kill-mid-write";
import { ledgerProblems, ledgerState, storedTransfers } from "./ledger-state";
import { call, login, startTransferStream } from "./transfer-stream";
import { useFaultRun } from "./use-fault-run";

/*
 * SIGKILL of the API process in the middle of a funding run with a year's catch-up due on 300
 * weekly-funded budgets (about 15,600 transfers and as many occurrences), while a stream of small
 * transfers on another account is being acknowledged. The kill lands after the run's transfers are
 * inserted, before or while its occurrences are: after the restart the run must be wholly absent
 * (no transfer, no occurrence, every budget's balance, funded amount and pointer as before), every
 * acknowledged transfer present, every ledger consistent; run again, it funds everything once, and a
 * third run funds nothing.
 */

const BUDGETS = 300;
const KILL_AT = "insert into funding_occurrences";

describe.each(testEngines())("SIGKILL in the middle of a funding run (%s)", (engine) => {
  const run = useFaultRun(engine);

  it("keeps every acknowledged write and none of the interrupted run, then funds once", async () => {
    const store = await run.store();
    let handle = await store.open();
    const owner = await seedOwner(handle.db);
    const savings = await seedAccount(handle.db, owner, "Savings", { balance: "1000000.00" });
    const asOf = await seedFundingBudgets(handle.db, savings.id, BUDGETS);
    const everyday = await seedAccount(handle.db, owner, "Everyday", { balance: "1000.00", budgets: 1 });
    const before = await ledgerState(handle.db, savings.id);
    await handle.close();

    let api = await run.start(store, KILL_AT);
    const token = await login(api.base, owner.email, owner.password);
    const fund = (base: string) =>
      fetch(`${base}/api/v1/bank-accounts/${savings.id}/run-funding/`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ as_of: asOf }),
      });

    const stream = startTransferStream(api.base, token, everyday);
    run.defer(() => stream.stop());
    await stream.acknowledgedAtLeast(5);
    const evidence = await killMidWrite(store, api, KILL_AT, () => fund(api.base));
    await stream.done;
    expectLandedMidTransaction(`[${engine}] run-funding`, evidence, stream.acknowledged.length);
    expect(stream.refused).toEqual([]);
    expect(stream.acknowledged.length).toBeGreaterThanOrEqual(5);

    if (engine === "postgres") {
      // Straight after the kill, before any restart: nothing of the run is there.
      handle = await store.open();
      expect(await ledgerState(handle.db, savings.id)).toEqual(before);
      expect(await storedTransfers(handle.db, stream.acknowledged)).toBe(stream.acknowledged.length);
      // Beside them at most the one transfer in flight at the kill (committed, its answer lost).
      const unanswered = (await ledgerState(handle.db, everyday.id)).transfers - stream.acknowledged.length;
      expect([0, 1]).toContain(unanswered);
      await handle.close();
    }

    // The restarted service recovers the store; the run, sent again, funds every event once.
    api = await run.start(store);
    const response = await fund(api.base);
    const result = (await response.json()) as {
      transfers: number;
      occurrences_completed: number;
      occurrences_partial: number;
    };
    expect(response.status, JSON.stringify(result).slice(0, 500)).toBe(200);
    expect(result.transfers).toBeGreaterThanOrEqual(BUDGETS * 52);
    expect(result.occurrences_partial).toBe(0);
    const third = await call(api.base, token, "POST", `/bank-accounts/${savings.id}/run-funding/`, {
      as_of: asOf,
    });
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ transfers: 0, occurrences_completed: 0, occurrences_partial: 0 });
    expect(await api.stop()).toBe(0);

    handle = await store.open();
    run.defer(() => handle.close());
    const after = await ledgerState(handle.db, savings.id);
    // Exactly one run's worth in total: the killed run's rows are not among them.
    expect(after).toMatchObject({
      transfers: result.transfers,
      occurrences: result.occurrences_completed,
      notifications: before.notifications + 1,
      availableBalance: before.availableBalance,
      budgetTotal: before.budgetTotal,
    });
    expect(await storedTransfers(handle.db, stream.acknowledged)).toBe(stream.acknowledged.length);
    expect(await ledgerProblems(handle.db)).toEqual([]);
  }, 300_000);
});
