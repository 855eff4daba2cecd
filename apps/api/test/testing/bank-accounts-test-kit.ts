import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { budgets } from "@allot/db/schema/budgets";
import { eq } from "drizzle-orm";
import { beforeAll, expect } from "vitest";
import { aBank } from "./fixtures";
import type { TestApp, TestUser } from "./test-app";
import type { CallInput } from "./test-client";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * The bank account HTTP tests' banks (a euro one and a dollar one, made once per file) and calls.
 * Accounts are created here with only the fields a test names, not with `anAccount`'s balances:
 * these tests are about what the create endpoint does with what it is sent.
 */
export function useBankAccountsKit(t: TestApp) {
  const banks = { euro: "", dollar: "" };
  beforeAll(async () => {
    banks.euro = (await aBank(t, { name: "Euro Bank", currency: "EUR" })).id;
    banks.dollar = (await aBank(t, { name: "Dollar Bank", currency: "USD" })).id;
  });

  return {
    banks,
    create: (user: TestUser, fields: Record<string, unknown>) =>
      t.as(user).callUnchecked(bankAccountRoutes.create, fields),
    /** A euro account named Checking unless the fields say otherwise; 201 expected. */
    async createdAccount(user: TestUser, fields: Partial<CallInput<typeof bankAccountRoutes.create>> = {}) {
      const response = await t
        .as(user)
        .call(bankAccountRoutes.create, { name: "Checking", bank: banks.euro, ...fields });
      expect(response.statusCode, response.body).toBe(201);
      return response.json();
    },
    get: (user: TestUser | string, id: string) => t.as(user).call(bankAccountRoutes.get, { id }),
    budgetsOf: (accountId: string) => t.db.select().from(budgets).where(eq(budgets.bankAccountId, accountId)),
  };
}
