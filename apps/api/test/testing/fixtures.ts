import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import type { RouteSpec } from "@allot/contract/http/route";
import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { aBank as aBankInDatabase } from "@allot/domain/testing/fixtures";
import type { TestApp, TestUser } from "./test-app";
import type { Caller, CallInput, CallOutput, RouteResponse } from "./test-client";

/*
 * The API tests' fixtures: each makes one resource over HTTP as its owner would, through the typed
 * client, insists on the route's success status and answers the resource as the route typed it.
 * Defaults are the commonest shape; a test names the fields it cares about.
 *
 * Banks have no create route (the admin CLI makes them), so `aBank` is the domain's. Code that
 * cannot reach an API (the scheduler's and cron's tests, the bench, the process-kill seeds written
 * before the API process starts) builds with `@allot/domain/testing/fixtures` instead: the same
 * names through the same use cases, one level down. The one difference: this `anAccount` holds
 * 1,000.00 unless told, the domain's nothing, as the create endpoint leaves it.
 */

type Owner = Exclude<Caller, null> | TestUser;
type Account = { id: string };

async function created<R extends RouteSpec>(what: string, route: R, response: RouteResponse<R>) {
  if (response.statusCode !== route.status)
    throw new Error(`${what}: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** A bank (USD unless told), made the admin way: the domain's fixture, there being no route for it. */
export const aBank = (t: TestApp, fields: { name?: string; currency?: string } = {}) =>
  aBankInDatabase(t.db, fields);

/**
 * A bank account of `owner` holding `balance` (1,000.00 by default; posted and available alike) in
 * its Unallocated budget, at `bank` or at a new bank in `currency`.
 */
export async function anAccount(
  t: TestApp,
  owner: Owner,
  fields: Partial<CallInput<typeof bankAccountRoutes.create>> & { balance?: string; currency?: string } = {},
) {
  const { balance = "1000.00", currency, bank, ...rest } = fields;
  const account = await created(
    "anAccount",
    bankAccountRoutes.create,
    await t.as(owner).call(bankAccountRoutes.create, {
      name: "Checking",
      bank: bank ?? (await aBank(t, { currency })).id,
      available_balance: balance,
      posted_balance: balance,
      ...rest,
    }),
  );
  const unallocated = account.unallocated_budget;
  if (unallocated === null) throw new Error("anAccount: no Unallocated budget");
  return { ...account, unallocated_budget: unallocated };
}

/** A Goal (funded a fixed 50 toward 500, named Holiday) unless the fields say otherwise. */
export async function aBudget(
  t: TestApp,
  owner: Owner,
  account: Account,
  fields: Partial<CallInput<typeof budgetRoutes.create>> = {},
): Promise<CallOutput<typeof budgetRoutes.create>> {
  return created(
    "aBudget",
    budgetRoutes.create,
    await t.as(owner).call(budgetRoutes.create, {
      name: "Holiday",
      bank_account: account.id,
      budget_type: "G",
      funding_type: "F",
      target_balance: "500",
      funding_amount: "50",
      ...fields,
    }),
  );
}

/** A category of the caller's own. */
export async function aCategory(
  t: TestApp,
  owner: Owner,
  fields: CallInput<typeof transactionCategoryRoutes.create>,
): Promise<CallOutput<typeof transactionCategoryRoutes.create>> {
  return created(
    "aCategory",
    transactionCategoryRoutes.create,
    await t.as(owner).call(transactionCategoryRoutes.create, fields),
  );
}

/** A posted card purchase of 10.00 on 10 March 2026 unless the fields say otherwise. */
export async function aTransaction(
  t: TestApp,
  owner: Owner,
  account: Account,
  fields: Partial<CallInput<typeof transactionRoutes.create>> = {},
): Promise<CallOutput<typeof transactionRoutes.create>> {
  return created(
    "aTransaction",
    transactionRoutes.create,
    await t.as(owner).call(transactionRoutes.create, {
      bank_account: account.id,
      amount: "-10.00",
      transaction_date: "2026-03-10T12:00:00Z",
      transaction_type: "signature_purchase",
      raw_description: "COFFEE SHOP",
      ...fields,
    }),
  );
}

/** A Recurring budget's fill-up goal: there is always one. */
export function fillupOf(budget: { fillup_goal: string | null }): string {
  if (!budget.fillup_goal) throw new Error("no fill-up goal");
  return budget.fillup_goal;
}
