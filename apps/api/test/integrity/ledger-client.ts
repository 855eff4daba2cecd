import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import type { Database } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { asc, eq } from "drizzle-orm";
import type { RouteCaller } from "../testing/test-client";

/**
 * Everything about an account that a write could change, as comparable text: a refused request
 * must leave it exactly as it was.
 */
export async function accountFingerprint(db: Database, accountId: string): Promise<string> {
  const [account] = await db
    .select({ posted: bankAccounts.postedBalance, available: bankAccounts.availableBalance })
    .from(bankAccounts)
    .where(eq(bankAccounts.id, accountId));
  const budgetRows = await db
    .select({
      id: budgets.id,
      name: budgets.name,
      balance: budgets.balance,
      funded: budgets.fundedAmount,
      archived: budgets.archived,
      complete: budgets.complete,
    })
    .from(budgets)
    .where(eq(budgets.bankAccountId, accountId))
    .orderBy(asc(budgets.id));
  const txRows = await db
    .select({
      id: transactions.id,
      amount: transactions.amount,
      pending: transactions.pending,
      posted: transactions.postedDate,
      postedSnapshot: transactions.postedBalanceSnapshot,
      availableSnapshot: transactions.availableBalanceSnapshot,
    })
    .from(transactions)
    .where(eq(transactions.bankAccountId, accountId))
    .orderBy(asc(transactions.id));
  const allocationRows = await db
    .select({
      id: transactionAllocations.id,
      budget: transactionAllocations.budgetId,
      amount: transactionAllocations.amount,
      balance: transactionAllocations.budgetBalance,
    })
    .from(transactionAllocations)
    .where(eq(transactionAllocations.bankAccountId, accountId))
    .orderBy(asc(transactionAllocations.id));
  const transferRows = await db
    .select({ id: internalTransactions.id })
    .from(internalTransactions)
    .where(eq(internalTransactions.bankAccountId, accountId))
    .orderBy(asc(internalTransactions.id));
  return JSON.stringify({ account, budgetRows, txRows, allocationRows, transferRows });
}

/**
 * Global base categories' ids by full name ("Food & Drink : Groceries"), looked up the way a client
 * would: GET /transaction-categories/?search=…, keeping the one global row with exactly that name.
 */
export async function globalCategoryIds(as: RouteCaller, fullNames: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const fullName of fullNames) {
    const reply = await as.call(transactionCategoryRoutes.list, { scope: "global", search: fullName });
    const matches =
      reply.statusCode === 200
        ? reply.json().results.filter((c) => c.full_name === fullName && c.owner === null)
        : [];
    const [match] = matches;
    if (!match || matches.length !== 1)
      throw new Error(`global category ${fullName}: ${reply.statusCode} ${reply.body}`);
    ids.push(match.id);
  }
  return ids;
}
