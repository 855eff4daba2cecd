import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import Big from "big.js";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { asUser, sessionActor } from "../../test/testing/use-case-context";
import { createBankAccount } from "../bank-accounts/create-bank-account";
import { createBank } from "../banks/create-bank";
import { unallocatedBudgetId } from "../budgets/unallocated-budget-id";
import { internalContext } from "../shared/use-case-context";
import { createUser } from "../users/create-user";
import { changeAccountBalances, changeBudgetBalance, lockBudgets } from "./balances";
import { lockAccountForChange } from "./change-number";
import { refreshBudgetSnapshots, refreshTransactionSnapshots } from "./snapshots";
import { recordTransfer } from "./transfers";
import { verifyLedger } from "./verify-ledger";

describe.each(testEngines())("ledger core (%s)", (engine) => {
  it("keeps snapshots right for out-of-order inserts, deletes and transfers, and finds a wrong one", async () => {
    const database = await openTestDatabase(engine);
    const { db } = database;
    try {
      const user = await createUser(internalContext(db, "cli"), {
        email: "ledger@example.com",
        password: "a long passphrase",
      });
      const actor = sessionActor(user);
      const bank = await createBank(internalContext(db, "cli"), { name: "Bank", currency: "USD" });
      const account = await createBankAccount(asUser(db, actor), {
        name: "A",
        bank: bank.id,
        available_balance: "100.00",
        posted_balance: "100.00",
      });
      const [goal] = await db
        .insert(budgets)
        .values({
          bankAccountId: account.id,
          name: "Goal",
          budgetType: "G",
          fundingType: "F",
          targetBalance: "50",
        })
        .returning();

      // A posted transaction of the given date, allocated to Unallocated, through the ledger.
      const post = (date: string, amount: string, pending = false) =>
        db.transaction(async (tx) => {
          await lockAccountForChange(tx, eq(bankAccounts.id, account.id));
          const unallocated = { id: await unallocatedBudgetId(tx, account.id) };
          await lockBudgets(tx, account.id, [unallocated.id]);
          const [row] = await tx
            .insert(transactions)
            .values({
              bankAccountId: account.id,
              amount,
              pending,
              postedDate: new Date(date),
              transactionDate: new Date(date),
              rawDescription: `t ${date}`,
              description: `t ${date}`,
            })
            .returning();
          if (!row) throw new Error("no row");
          await tx
            .insert(transactionAllocations)
            .values({ transactionId: row.id, bankAccountId: account.id, budgetId: unallocated.id, amount });
          await changeAccountBalances(tx, account.id, {
            posted: pending ? new Big(0) : new Big(amount),
            available: new Big(amount),
            transactions: 1,
          });
          await changeBudgetBalance(tx, unallocated.id, new Big(amount));
          const key = { at: row.transactionDate, createdAt: row.createdAt };
          await refreshTransactionSnapshots(tx, account.id, key);
          await refreshBudgetSnapshots(tx, account.id, [unallocated.id], key);
          return row;
        });

      await post("2026-03-10T00:00:00Z", "-20.00");
      await post("2026-03-12T00:00:00Z", "-5.50", true);
      const older = await post("2026-03-01T00:00:00Z", "1000.25");
      await db.transaction(async (tx) => {
        await lockAccountForChange(tx, eq(bankAccounts.id, account.id));
        const locked = await lockBudgets(tx, account.id, [
          account.unallocated_budget as string,
          goal?.id as string,
        ]);
        await recordTransfer(tx, {
          accountId: account.id,
          source: locked.get(account.unallocated_budget as string) as never,
          destination: locked.get(goal?.id as string) as never,
          amount: new Big("60"),
          actorId: user.id,
          effectiveDate: new Date("2026-03-05T00:00:00Z"),
        });
      });
      expect(await verifyLedger(db, account.id)).toEqual([]);
      const [funded] = await db
        .select()
        .from(budgets)
        .where(eq(budgets.id, goal?.id as string));
      expect(funded).toMatchObject({ balance: "60.00", fundedAmount: "60.00", complete: true });

      // Deleting the oldest row shifts every later snapshot.
      await db.transaction(async (tx) => {
        await lockAccountForChange(tx, eq(bankAccounts.id, account.id));
        const unallocated = { id: await unallocatedBudgetId(tx, account.id) };
        await lockBudgets(tx, account.id, [unallocated.id]);
        await tx.delete(transactions).where(eq(transactions.id, older.id));
        await changeAccountBalances(tx, account.id, {
          posted: new Big("-1000.25"),
          available: new Big("-1000.25"),
          transactions: -1,
        });
        await changeBudgetBalance(tx, unallocated.id, new Big("-1000.25"));
        const key = { at: older.transactionDate, createdAt: older.createdAt };
        await refreshTransactionSnapshots(tx, account.id, key);
        await refreshBudgetSnapshots(tx, account.id, [unallocated.id], key);
      });
      expect(await verifyLedger(db, account.id)).toEqual([]);

      await db
        .update(transactions)
        .set({ postedBalanceSnapshot: "1.00" })
        .where(eq(transactions.bankAccountId, account.id));
      expect((await verifyLedger(db, account.id)).length).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  });
});
