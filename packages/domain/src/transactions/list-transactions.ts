import type { TRANSACTION_ORDERING } from "@allot/contract/transactions/transaction";
import type { Database } from "@allot/db/create-database";
import { transactions } from "@allot/db/schema/transactions";
import { asc, count, desc, type SQL } from "drizzle-orm";
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

/** A page of the caller's transactions, filtered and ordered, with all allocations in one more query. */
export async function listTransactions(
  db: Database,
  actor: Actor,
  query: PageRequest & TransactionFilters & { ordering?: string },
) {
  const where = transactionListCondition(db, actor.userId, query);
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
      ),
  );
}
