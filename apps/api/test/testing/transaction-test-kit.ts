import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { budgets } from "@allot/db/schema/budgets";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { anAccount, aTransaction } from "./fixtures";
import type { TestUser, useTestApp } from "./test-app";
import type { CallInput } from "./test-client";

type Harness = ReturnType<typeof useTestApp>;

/**
 * Helpers for the transaction and allocation HTTP tests: accounts and transactions through the
 * fixtures, budgets written straight into the table (any type, no fill-up, fast), rows, ledger checks.
 */
export function transactionKit(t: Harness) {
  const kit = {
    async account(user: TestUser, balance = "1000.00", currency = "USD") {
      const account = await anAccount(t, user, { balance, currency });
      return { id: account.id, unallocated: account.unallocated_budget };
    },
    async balances(user: TestUser, accountId: string) {
      const body = (await t.as(user).call(bankAccountRoutes.get, { id: accountId })).json();
      return { posted: body.posted_balance, available: body.available_balance };
    },
    async budget(accountId: string, values: Partial<typeof budgets.$inferInsert> = {}) {
      const [row] = await t.db
        .insert(budgets)
        .values({
          bankAccountId: accountId,
          name: `Budget ${Math.random()}`,
          budgetType: "G",
          fundingType: "F",
          targetBalance: "100",
          ...values,
        })
        .returning();
      if (!row) throw new Error("budget insert");
      return row.id;
    },
    async budgetBalance(id: string) {
      const [row] = await t.db.select({ balance: budgets.balance }).from(budgets).where(eq(budgets.id, id));
      return row?.balance;
    },
    async category(group: string, name: string) {
      const [row] = await t.db
        .select({ id: transactionCategories.id })
        .from(transactionCategories)
        .where(and(eq(transactionCategories.group, group), eq(transactionCategories.name, name)));
      if (!row) throw new Error(`no category ${group} : ${name}`);
      return row.id;
    },
    create(user: TestUser, payload: Record<string, unknown>) {
      return t.as(user).callUnchecked(transactionRoutes.create, payload);
    },
    /** A transaction made over HTTP; 201 expected. */
    transaction: (
      user: TestUser,
      accountId: string,
      fields: Partial<CallInput<typeof transactionRoutes.create>> = {},
    ) => aTransaction(t, user, { id: accountId }, fields),
    async ledgerHolds(accountId: string) {
      expect(await verifyLedger(t.db, accountId)).toEqual([]);
    },
  };
  return kit;
}
