import type { TRANSACTION_ORDERING } from "@allot/contract/transactions/transaction";
import type { Database } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { transactions } from "@allot/db/schema/transactions";
import { and, asc, count, desc, eq, type SQL, sql } from "drizzle-orm";
import { ownedBy } from "../bank-accounts/find-owned-account";
import type { Actor } from "../shared/actor";
import { type PageRequest, paginate } from "../shared/pagination";
import { type TransactionFilters, transactionListCondition } from "./transaction-filters";
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

/**
 * The list's `count`. Whole accounts read the ledger-kept transaction_count (O(1), so a page costs
 * the same at 100,000 rows as at 10,000); any other filter counts the matching rows.
 */
async function countTransactions(
  db: Database,
  actor: Actor,
  query: TransactionFilters,
  where: SQL | undefined,
) {
  if (onlyWholeAccounts({ ...query })) {
    const [row] = await db
      .select({ n: sql<string>`coalesce(sum(${bankAccounts.transactionCount}), 0)` })
      .from(bankAccounts)
      .where(
        and(
          ownedBy(db, actor.userId),
          query.bank_account ? eq(bankAccounts.id, query.bank_account) : undefined,
        ),
      );
    return Number(row?.n ?? 0);
  }
  return (await db.select({ n: count() }).from(t).where(where))[0]?.n ?? 0;
}

/** A page of the caller's transactions, filtered and ordered, with all allocations in one more query. */
export async function listTransactions(
  db: Database,
  actor: Actor,
  query: PageRequest & TransactionFilters & { ordering?: string },
) {
  const where = transactionListCondition(db, actor.userId, query);
  return paginate(
    query,
    () => countTransactions(db, actor, query, where),
    async ({ offset, limit }) =>
      toTransactionViews(
        db,
        await selectTransactionViews(db)
          .where(where)
          .orderBy(...orderBy(query.ordering))
          .offset(offset)
          .limit(limit),
      ),
  );
}
