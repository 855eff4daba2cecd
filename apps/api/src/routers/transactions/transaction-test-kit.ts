import { budgets } from "@allot/db/schema/budgets";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { createBank } from "@allot/domain/banks/create-bank";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { TestUser, useTestApp } from "../../../test/testing/test-app";

type Harness = ReturnType<typeof useTestApp>;

/** Helpers for the transaction and allocation HTTP tests: accounts, budgets, rows, ledger checks. */
export function transactionKit(t: Harness) {
  const auth = (user: TestUser) => ({ authorization: user.bearer });

  const kit = {
    auth,
    async account(user: TestUser, balance = "1000.00", currency = "USD") {
      const bank = await createBank(internalContext(t.db, "cli"), {
        name: `Bank ${Math.random()}`,
        currency,
      });
      const response = await t.inject({
        method: "POST",
        url: "/api/v1/bank-accounts/",
        headers: auth(user),
        payload: { name: "Checking", bank: bank.id, posted_balance: balance, available_balance: balance },
      });
      if (response.statusCode !== 201) throw new Error(`account: ${response.statusCode} ${response.body}`);
      const body = response.json();
      return { id: body.id as string, unallocated: body.unallocated_budget as string };
    },
    async balances(user: TestUser, accountId: string) {
      const body = (
        await t.inject({ url: `/api/v1/bank-accounts/${accountId}/`, headers: auth(user) })
      ).json();
      return { posted: body.posted_balance as string, available: body.available_balance as string };
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
      return t.inject({ method: "POST", url: "/api/v1/transactions/", headers: auth(user), payload });
    },
    /** A transaction made over HTTP; 201 expected. */
    async transaction(user: TestUser, accountId: string, fields: Record<string, unknown> = {}) {
      const response = await kit.create(user, {
        bank_account: accountId,
        amount: "-10.00",
        transaction_date: "2026-03-10T12:00:00Z",
        transaction_type: "signature_purchase",
        raw_description: "COFFEE SHOP",
        ...fields,
      });
      if (response.statusCode !== 201)
        throw new Error(`transaction: ${response.statusCode} ${response.body}`);
      return response.json();
    },
    async ledgerHolds(accountId: string) {
      expect(await verifyLedger(t.db, accountId)).toEqual([]);
    },
  };
  return kit;
}
