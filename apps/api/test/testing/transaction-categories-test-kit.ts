import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { aBudget, aCategory, anAccount } from "./fixtures";
import type { TestApp, TestUser } from "./test-app";
import type { CallOutput } from "./test-client";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const MISSING = "5f0c4f7e-3f39-4a8e-9d1c-000000000000";
/** For the raw requests: form and multipart bodies, odd paths and methods. */
export const BASE = "/api/v1/transaction-categories/";

export type Category = CallOutput<typeof transactionCategoryRoutes.get>;

/** Case-insensitive text order, as the API sorts (lower() on both engines). */
export const byText = (a: string, b: string) =>
  a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;

/** A query as a client may send it: typed values, or the text of a query string (`archived: "0"`). */
type ListQuery = Record<string, unknown>;

/**
 * The category HTTP tests' calls (unchecked where tests send what the contract refuses) and their
 * writes below the API: co-owners, transactions and allocations straight into the tables.
 */
export function categoriesKit(t: TestApp) {
  const kit = {
    list: (user: TestUser, query: ListQuery = {}) =>
      t.as(user).callUnchecked(transactionCategoryRoutes.list, query),
    /** Every visible category matching `query` on one page of 500; 200 expected. */
    async listAll(user: TestUser, query: ListQuery = {}): Promise<Category[]> {
      const response = await kit.list(user, { page_size: 500, ...query });
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json();
      expect(page.next).toBeNull();
      return page.results;
    },
    /** The globals every user sees. */
    globalNamed(globals: Category[], fullName: string) {
      const found = globals.find((c) => c.full_name === fullName);
      if (!found) throw new Error(`no global ${fullName}`);
      return found;
    },
    create: (user: TestUser, fields: Record<string, unknown>) =>
      t.as(user).callUnchecked(transactionCategoryRoutes.create, fields),
    created: (user: TestUser, group: string, name: string) => aCategory(t, user, { group, name }),
    retrieve: (user: TestUser, id: string) => t.as(user).call(transactionCategoryRoutes.get, { id }),
    put: (user: TestUser, id: string, fields: Record<string, unknown>) =>
      t.as(user).callUnchecked(transactionCategoryRoutes.replace, { id, ...fields }),
    patch: (user: TestUser, id: string, fields: Record<string, unknown>) =>
      t.as(user).callUnchecked(transactionCategoryRoutes.update, { id, ...fields }),
    remove: (user: TestUser, id: string) => t.as(user).call(transactionCategoryRoutes.delete, { id }),
    archive: (user: TestUser, id: string) => t.as(user).call(transactionCategoryRoutes.archive, { id }),

    /** An account of `owner` over HTTP; more owners are added straight into bank_account_owners. */
    async account(owner: TestUser, ...coOwners: TestUser[]) {
      const { id } = await anAccount(t, owner, { name: "Household" });
      for (const user of coOwners)
        await t.db.insert(bankAccountOwners).values({ bankAccountId: id, userId: user.id });
      return id;
    },
    endSharing: (accountId: string, user: TestUser) =>
      t.db
        .delete(bankAccountOwners)
        .where(and(eq(bankAccountOwners.bankAccountId, accountId), eq(bankAccountOwners.userId, user.id))),
    /** A transaction row written directly (the transactions endpoints are not part of this area). */
    async transaction(accountId: string, categoryId: string | null) {
      const [row] = await t.db
        .insert(transactions)
        .values({
          bankAccountId: accountId,
          amount: "-12.50",
          postedDate: new Date(),
          transactionDate: new Date(),
          rawDescription: "CARD PURCHASE",
          description: "Card purchase",
          categoryId,
        })
        .returning();
      return row?.id as string;
    },
    allocation: async (accountId: string, categoryId: string) =>
      t.db.insert(transactionAllocations).values({
        transactionId: await kit.transaction(accountId, null),
        bankAccountId: accountId,
        amount: "-12.50",
        categoryId,
      }),
    /** A Goal over HTTP listing these auto_spend entries; answers its id. */
    budgetListing: async (user: TestUser, accountId: string, autoSpend: string[]) =>
      (
        await aBudget(
          t,
          user,
          { id: accountId },
          {
            name: "Routed",
            target_balance: "100",
            funding_amount: "10",
            auto_spend: autoSpend,
          },
        )
      ).id,
    autoSpendOf: async (budgetId: string) =>
      (await t.db.select().from(budgets).where(eq(budgets.id, budgetId)))[0]?.autoSpend,
    /** A transaction created over HTTP with this category. */
    createTransaction: (user: TestUser, accountId: string, category: string) =>
      t.as(user).call(transactionRoutes.create, {
        bank_account: accountId,
        amount: "-12.50",
        transaction_date: "2026-01-10",
        transaction_type: "ach",
        raw_description: "CARD PURCHASE",
        category,
      }),
  };
  return kit;
}
