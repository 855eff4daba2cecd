import { testEngines } from "@allot/db/testing/test-databases";
import { scrapePayload } from "@allot/domain/testing/scrape-payload";
import { describe, expect, it } from "vitest";
import { seedAccount, seedOwner, seedTransactions } from "./fault-seed";
import { expectLandedMidTransaction, killMidWrite } from "./kill-mid-write";
import { ledgerProblems, ledgerState, storedTransfers } from "./ledger-state";
import { call, login, startTransferStream } from "./transfer-stream";
import { useFaultRun } from "./use-fault-run";

/*
 * SIGKILL of the API process in the middle of a large sync-scrape (5,000 new posted rows and 20
 * pending ones, replacing the account's 20 stored pending rows), while a stream of small transfers
 * on another account is being acknowledged. The kill lands after the new transactions are inserted,
 * before or while their allocations are: the import must be wholly absent after the restart (its
 * deletions too), every acknowledged transfer present, every ledger consistent, and the same
 * payload sent again must import once.
 */

const STORED = 2_000;
const STORED_PENDING = 20;
const SCRAPED = 5_000;
const SCRAPED_PENDING = 20;
const KILL_AT = "insert into transaction_allocations";

describe.each(testEngines())("SIGKILL in the middle of a large sync-scrape (%s)", (engine) => {
  const run = useFaultRun(engine);

  it("keeps every acknowledged write and none of the interrupted import", async () => {
    const store = await run.store();
    let handle = await store.open();
    const owner = await seedOwner(handle.db);
    const imported = await seedAccount(handle.db, owner, "Checking");
    await seedTransactions(handle.db, imported, STORED, { pending: STORED_PENDING });
    const everyday = await seedAccount(handle.db, owner, "Everyday", { balance: "1000.00", budgets: 1 });
    const before = await ledgerState(handle.db, imported.id);
    await handle.close();

    let api = await run.start(store, KILL_AT);
    const token = await login(api.base, owner.email, owner.password);
    const payload = scrapePayload(BigInt(before.postedBalance.replace(".", "")), SCRAPED, SCRAPED_PENDING);
    const sync = (base: string) =>
      fetch(`${base}/api/v1/bank-accounts/${imported.id}/sync-scrape/`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(payload),
      });

    const stream = startTransferStream(api.base, token, everyday);
    run.defer(() => stream.stop());
    await stream.acknowledgedAtLeast(5);
    const evidence = await killMidWrite(store, api, KILL_AT, () => sync(api.base));
    await stream.done;
    expectLandedMidTransaction(`[${engine}] sync-scrape`, evidence, stream.acknowledged.length);
    expect(stream.refused).toEqual([]);
    expect(stream.acknowledged.length).toBeGreaterThanOrEqual(5);

    if (engine === "postgres") {
      // Straight after the kill, before any restart: nothing of the import is there.
      handle = await store.open();
      expect(await ledgerState(handle.db, imported.id)).toEqual(before);
      expect(await storedTransfers(handle.db, stream.acknowledged)).toBe(stream.acknowledged.length);
      // Beside them at most the one transfer in flight at the kill (committed, its answer lost).
      const unanswered = (await ledgerState(handle.db, everyday.id)).transfers - stream.acknowledged.length;
      expect([0, 1]).toContain(unanswered);
      await handle.close();
    }

    // The restarted service recovers the store and takes the same import, once.
    api = await run.start(store);
    const account = await call(api.base, token, "GET", `/bank-accounts/${imported.id}/`);
    expect(account.status).toBe(200);
    expect([account.body.posted_balance, account.body.available_balance]).toEqual([
      before.postedBalance,
      before.availableBalance,
    ]);
    const again = await sync(api.base);
    const result = await again.json();
    expect(again.status, JSON.stringify(result).slice(0, 500)).toBe(200);
    // Every row is new, and the 20 stored pending rows were still there to replace: the killed
    // import left nothing behind, not even its deletions.
    expect(result).toMatchObject({
      inserted_posted: SCRAPED,
      skipped_posted: 0,
      inserted_pending: SCRAPED_PENDING,
      deleted_pending: STORED_PENDING,
      balance_mismatch: null,
      posting_order_mismatches: [],
    });
    const once = await (await sync(api.base)).json();
    expect(once).toMatchObject({
      inserted_posted: 0,
      skipped_posted: SCRAPED,
      deleted_pending: SCRAPED_PENDING,
    });
    const transfer = await call(api.base, token, "POST", "/internal-transactions/", {
      bank_account: everyday.id,
      amount: "1.00",
      src_budget: everyday.unallocatedId,
      dst_budget: everyday.budgetIds[0],
    });
    expect(transfer.status).toBe(201);
    expect(await api.stop()).toBe(0);

    handle = await store.open();
    run.defer(() => handle.close());
    const added = SCRAPED + SCRAPED_PENDING - STORED_PENDING;
    expect(await ledgerState(handle.db, imported.id)).toMatchObject({
      transactions: before.transactions + added,
      allocations: before.allocations + added,
      pending: SCRAPED_PENDING,
      transactionCount: before.transactionCount + added,
    });
    expect(await storedTransfers(handle.db, stream.acknowledged)).toBe(stream.acknowledged.length);
    expect(await ledgerProblems(handle.db)).toEqual([]);
  }, 300_000);
});
