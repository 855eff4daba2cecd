import { rowsOf } from "@allot/db/rows-of";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { injectSender } from "../integrity/ledger-client";
import { useTestApp } from "../testing/test-app";

/*
 * A real deadlock between a transfer and another writer: the other writer locks the destination
 * budget, the transfer locks the account and waits for that budget, then the other writer asks
 * for the account. PostgreSQL breaks the cycle by rolling back the transfer (the other writer's
 * deadlock_timeout is set far higher, so the transfer's backend is the one that checks first).
 * The service runs the transfer again once the other writer is done, and the client sees a 201.
 * PostgreSQL only: PGlite has one connection, so its writers never wait on each other.
 */
describe.runIf(testEngines().includes("postgres"))("a deadlock between concurrent writers", () => {
  const t = useTestApp("postgres");

  it("is retried inside the service: the transfer succeeds once and the ledger adds up", async () => {
    const owner = await t.user();
    const send = injectSender(t.app, owner.bearer);
    const bank = await createBank(internalContext(t.db, "cli"), { name: "Deadlock Bank", currency: "USD" });
    const account = (
      await send("POST", "/bank-accounts/", { name: "Joint", bank: bank.id, available_balance: "100.00" })
    ).body;
    const budget = await send("POST", "/budgets/", {
      bank_account: account.id,
      name: "Rent",
      budget_type: "G",
      funding_type: "F",
      target_balance: "1000.00",
      funding_amount: "0.00",
    });
    expect(budget.status, JSON.stringify(budget.body)).toBe(201);

    let transfer: ReturnType<typeof send> | undefined;
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local deadlock_timeout = '30s'`);
      await tx.execute(sql`select id from budgets where id = ${budget.body.id} for update`);
      transfer = send("POST", "/internal-transactions/", {
        bank_account: account.id,
        amount: "25.00",
        src_budget: account.unallocated_budget,
        dst_budget: budget.body.id,
      });
      await waitForLockWaiters(1);
      // Closes the cycle: the transfer holds the account and waits for the budget we hold.
      await tx.execute(sql`select id from bank_accounts where id = ${account.id} for update`);
    });

    const answer = await (transfer as ReturnType<typeof send>);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const transfers = await send("GET", `/internal-transactions/?bank_account=${account.id}`);
    expect(transfers.body.results.map((row: { amount: string }) => row.amount)).toEqual(["25.00"]);
    const rent = await send("GET", `/budgets/${budget.body.id}/`);
    expect(rent.body.balance).toBe("25.00");
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
