import { budgetRoutes } from "@allot/contract/budgets/routes";
import { toMoney } from "@allot/contract/money";
import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { ownedBy } from "@allot/domain/account-access/find-owned-account";
import {
  type BudgetRow,
  changeAccountBalances,
  changeBudgetBalance,
  lockBudgets,
} from "@allot/domain/ledger/balances";
import { lockAccountForChange } from "@allot/domain/ledger/change-number";
import { refreshBudgetSnapshots, refreshTransactionSnapshots } from "@allot/domain/ledger/snapshots";
import { recordTransfer } from "@allot/domain/ledger/transfers";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { aTransaction } from "./fixtures";
import type { TestApp, TestUser } from "./test-app";
import type { CallInput } from "./test-client";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const MISSING = "00000000-0000-4000-8000-000000000000";

/** aBudget's defaults, for requests built by hand. */
export const goalFields = {
  budget_type: "G",
  funding_type: "F",
  target_balance: "500",
  funding_amount: "50",
} as const;
export const recurringFields = {
  budget_type: "R",
  funding_type: "D",
  target_balance: "120.00",
  recurrence_schedule: "RRULE:FREQ=MONTHLY",
  funding_schedule: "DTSTART:20260101\nRRULE:FREQ=WEEKLY",
} as const;

type Account = { id: string };

/** The budget HTTP tests' reads of the database and their ledger moves below the API. */
export function budgetsKit(t: TestApp) {
  return {
    row: async (id: string) => (await t.db.select().from(budgets).where(eq(budgets.id, id)))[0],

    expectLedgerOk: async (account: Account) => expect(await verifyLedger(t.db, account.id)).toEqual([]),

    /** One page of the caller's budgets; 200 expected. */
    async list(user: TestUser, query: CallInput<typeof budgetRoutes.list> = {}) {
      const response = await t.as(user).call(budgetRoutes.list, query);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    },

    async globalCategoryId(user: TestUser, fullName: string): Promise<string> {
      const response = await t
        .as(user)
        .call(transactionCategoryRoutes.list, { scope: "global", page_size: 500 });
      const found = response.json().results.find((c) => c.full_name === fullName);
      if (!found) throw new Error(`no global category ${fullName}`);
      return found.id;
    },

    /** A posted spend created over HTTP; answers the budget its allocation went to. */
    async spend(user: TestUser, account: Account, category: string) {
      const transaction = await aTransaction(t, user, account, {
        amount: "-12.00",
        transaction_date: "2026-01-10",
        transaction_type: "ach",
        raw_description: "shop",
        category,
      });
      const [allocation] = await t.db
        .select()
        .from(transactionAllocations)
        .where(eq(transactionAllocations.transactionId, transaction.id));
      return allocation?.budgetId;
    },

    /** Moves money between two budgets as a recorded transfer, through the ledger core. */
    transfer: (user: TestUser, account: Account, from: string, to: string, amount: string) =>
      t.db.transaction(async (tx) => {
        await lockAccountForChange(tx, and(eq(bankAccounts.id, account.id), ownedBy(tx, user.id)));
        const locked = await lockBudgets(tx, account.id, [from, to]);
        await recordTransfer(tx, {
          accountId: account.id,
          source: locked.get(from) as BudgetRow,
          destination: locked.get(to) as BudgetRow,
          amount: toMoney(amount),
          actorId: user.id,
        });
      }),

    /** A posted transaction allocated wholly to one budget, through the ledger core. */
    allocate: (user: TestUser, account: Account, budgetId: string, amount: string) =>
      t.db.transaction(async (tx) => {
        await lockAccountForChange(tx, and(eq(bankAccounts.id, account.id), ownedBy(tx, user.id)));
        await lockBudgets(tx, account.id, [budgetId]);
        const now = new Date();
        const [txRow] = await tx
          .insert(transactions)
          .values({
            bankAccountId: account.id,
            amount,
            postedDate: now,
            transactionDate: now,
            rawDescription: "shop",
            description: "shop",
          })
          .returning();
        if (!txRow) throw new Error("no transaction");
        await tx
          .insert(transactionAllocations)
          .values({ transactionId: txRow.id, bankAccountId: account.id, budgetId, amount });
        await changeAccountBalances(tx, account.id, {
          posted: toMoney(amount),
          available: toMoney(amount),
          transactions: 1,
        });
        await changeBudgetBalance(tx, budgetId, toMoney(amount));
        const key = { at: txRow.transactionDate, createdAt: txRow.createdAt };
        await refreshTransactionSnapshots(tx, account.id, key);
        await refreshBudgetSnapshots(tx, account.id, [budgetId], key);
      }),
  };
}
