import type { Database } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { asc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";

/** One HTTP answer, body parsed when there is one. */
export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field by the tests.
  body: any;
}

/** Sends a request under /api/v1 as one user, the way a client would. */
export type Send = (
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  payload?: unknown,
) => Promise<Reply>;

const parse = (text: string) => {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/**
 * Through fastify's inject: no socket, same app. Raw by path on purpose: the same `Send` as
 * fetchSender, so a test runs unchanged over inject and over a real socket.
 */
export const injectSender =
  (app: FastifyInstance, authorization: string): Send =>
  async (method, path, payload) => {
    const response = await app.inject({
      method,
      url: `/api/v1${path}`,
      headers: { authorization },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: parse(response.body) };
  };

/** Over a real socket to a listening server. */
export const fetchSender =
  (baseUrl: string, authorization: string): Send =>
  async (method, path, payload) => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization,
        ...(payload === undefined ? {} : { "content-type": "application/json" }),
      },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
    return { status: response.status, body: parse(await response.text()) };
  };

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
export async function globalCategoryIds(send: Send, fullNames: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const fullName of fullNames) {
    const reply = await send(
      "GET",
      `/transaction-categories/?scope=global&search=${encodeURIComponent(fullName)}`,
    );
    const matches = (reply.body?.results ?? []).filter(
      (c: { full_name: string; owner: string | null }) => c.full_name === fullName && c.owner === null,
    );
    if (reply.status !== 200 || matches.length !== 1)
      throw new Error(`global category ${fullName}: ${reply.status} ${JSON.stringify(reply.body)}`);
    ids.push(matches[0].id);
  }
  return ids;
}
