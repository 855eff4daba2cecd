import type { RouteInput } from "@allot/contract/http/route";
import type { transactionRoutes } from "@allot/contract/transactions/routes";
import type { TRANSACTION_ORDERING } from "@allot/contract/transactions/transaction";
import type { Database } from "@allot/db/create-database";
import { perDatabase } from "@allot/db/per-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { transactions } from "@allot/db/schema/transactions";
import { type AnyColumn, and, asc, count, desc, eq, type SQL, sql } from "drizzle-orm";
import { inOwnedAccounts } from "../account-access/find-owned-account";
import { paginate } from "../shared/pagination";
import type { UseCaseContext } from "../shared/use-case-context";
import { transactionListCondition } from "./transaction-filters";
import { selectTransactionViews, toTransactionViews } from "./transaction-view";

type OrderField = (typeof TRANSACTION_ORDERING)[number];

const t = transactions;
// Newest first is the list's natural order (the account's history read backwards); it also breaks
// ties of the other orderings, so pages never shuffle.
const NEWEST_FIRST = [desc(t.transactionDate), desc(t.createdAt), desc(t.id)];

function orderBy(ordering: string | undefined): SQL[] {
  if (!ordering) return NEWEST_FIRST;
  const direction = ordering.startsWith("-") ? desc : asc;
  const field = ordering.replace(/^-/, "") as OrderField;
  if (field === "transaction_date")
    return [direction(t.transactionDate), direction(t.createdAt), direction(t.id)];
  if (field === "created_at") return [direction(t.createdAt), direction(t.id)];
  return [direction(t.amount), ...NEWEST_FIRST];
}

const UNFILTERED_KEYS = new Set(["page", "page_size", "ordering", "bank_account"]);

/** True when nothing narrows the list below whole accounts (an empty transaction_type is no filter). */
const onlyWholeAccounts = (query: Record<string, unknown>) =>
  Object.entries(query).every(
    ([key, value]) =>
      UNFILTERED_KEYS.has(key) || value === undefined || (key === "transaction_type" && value === ""),
  );

type Scope = "account" | "all";

/** One account's or all the caller's accounts, for statements prepared with placeholders. */
const inScope = (db: Database, column: AnyColumn, scope: Scope) =>
  and(
    inOwnedAccounts(db, column, sql.placeholder("userId")),
    scope === "account" ? eq(column, sql.placeholder("accountId")) : undefined,
  );

/*
 * A whole account's history, unfiltered, is what every client opens. Its count (the ledger-kept
 * transaction_count: O(1), so a page costs the same at 100,000 rows as at 10,000) and its page are
 * built once per database handle, scope and ordering, not by drizzle on every request.
 */
const wholeAccountsCount = perDatabase((db, scope: Scope) =>
  db
    .select({ n: sql<string>`coalesce(sum(${bankAccounts.transactionCount}), 0)` })
    .from(bankAccounts)
    .where(inScope(db, bankAccounts.id, scope))
    .prepare(`transactions_count_${scope}`),
);

const wholeAccountsPage = perDatabase((db, key: `${Scope}:${string}`) => {
  const [scope, ordering] = key.split(":") as [Scope, string];
  return selectTransactionViews(db)
    .where(inScope(db, t.bankAccountId, scope))
    .orderBy(...orderBy(ordering || undefined))
    .offset(sql.placeholder("offset"))
    .limit(sql.placeholder("limit"))
    .prepare(`transactions_page_${scope}_${ordering.replace("-", "desc_") || "default"}`);
});

/** A page of the caller's transactions, filtered and ordered, with all allocations in one more query. */
export async function listTransactions(
  { db, actor, services }: UseCaseContext<"publicBaseUrl">,
  query: RouteInput<typeof transactionRoutes.list>,
) {
  if (onlyWholeAccounts({ ...query })) {
    const scope: Scope = query.bank_account ? "account" : "all";
    const params = { userId: actor.userId, accountId: query.bank_account };
    return paginate(
      query,
      async () => Number((await wholeAccountsCount(db, scope).execute(params))[0]?.n ?? 0),
      async ({ offset, limit }) =>
        toTransactionViews(
          db,
          await wholeAccountsPage(db, `${scope}:${query.ordering ?? ""}`).execute({
            ...params,
            offset,
            limit,
          }),
          services,
        ),
    );
  }
  const where = await transactionListCondition(db, actor.userId, query);
  return paginate(
    query,
    async () => (await db.select({ n: count() }).from(t).where(where))[0]?.n ?? 0,
    async ({ offset, limit }) =>
      toTransactionViews(
        db,
        await selectTransactionViews(db)
          .where(where)
          .orderBy(...orderBy(query.ordering))
          .offset(offset)
          .limit(limit),
        services,
      ),
  );
}
