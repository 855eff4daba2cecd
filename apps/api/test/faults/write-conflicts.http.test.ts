import { budgetRoutes } from "@allot/contract/budgets/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { rowsOf } from "@allot/db/rows-of";
import { describeOnPostgres } from "@allot/db/testing/server-suites";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { aBank, aBudget, anAccount } from "../testing/fixtures";
import { useTestApp } from "../testing/test-app";
import type { RouteResponse } from "../testing/test-client";

/*
 * A real deadlock between a transfer and another writer: the other writer locks the destination
 * budget, the transfer locks the account and waits for that budget, then the other writer asks
 * for the account. PostgreSQL breaks the cycle by rolling back the transfer (the other writer's
 * deadlock_timeout is set far higher, so the transfer's backend is the one that checks first).
 * The service runs the transfer again once the other writer is done, and the client sees a 201.
 * PostgreSQL only: PGlite has one connection, so its writers never wait on each other.
 */
describeOnPostgres("a deadlock between concurrent writers", () => {
  const t = useTestApp("postgres");

  it("is retried inside the service: the transfer succeeds once and the ledger adds up", async () => {
    const owner = await t.user();
    const as = t.as(owner);
    const account = await anAccount(t, owner, {
      name: "Joint",
      bank: (await aBank(t, { name: "Deadlock Bank", currency: "USD" })).id,
      balance: "100.00",
    });
    const budget = await aBudget(t, owner, account, {
      name: "Rent",
      target_balance: "1000.00",
      funding_amount: "0.00",
    });

    type Answer = Promise<RouteResponse<typeof internalTransactionRoutes.create>>;
    let transfer: Answer | undefined;
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local deadlock_timeout = '30s'`);
      await tx.execute(sql`select id from budgets where id = ${budget.id} for update`);
      transfer = as.call(internalTransactionRoutes.create, {
        bank_account: account.id,
        amount: "25.00",
        src_budget: account.unallocated_budget,
        dst_budget: budget.id,
      });
      await waitForLockWaiters(1);
      // Closes the cycle: the transfer holds the account and waits for the budget we hold.
      await tx.execute(sql`select id from bank_accounts where id = ${account.id} for update`);
    });

    const answer = await (transfer as Answer);
    expect(answer.statusCode, answer.body).toBe(201);
    const transfers = await as.call(internalTransactionRoutes.list, { bank_account: account.id });
    expect(transfers.json().results.map((row) => row.amount)).toEqual(["25.00"]);
    const rent = await as.call(budgetRoutes.get, { id: budget.id });
    expect(rent.json().balance).toBe("25.00");
    expect(await verifyLedger(t.db, account.id)).toEqual([]);
  });

  /** Until `count` other backends of this database wait for a lock. */
  async function waitForLockWaiters(count: number) {
    for (let tries = 0; tries < 600; tries += 1) {
      const [row] = rowsOf<{ waiting: number }>(
        await t.db.execute(
          sql`select count(*)::int as waiting from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`,
        ),
      );
      if ((row?.waiting ?? 0) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the transfer never waited for the budget lock");
  }
});
