import type { RouteInput } from "@allot/contract/http/route";
import type { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import type { Database } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { and, asc, count, desc, eq, or } from "drizzle-orm";
import { ownedBy } from "../account-access/find-owned-account";
import { accountDayRanges } from "../calendar/account-day-range";
import { paginate } from "../shared/pagination";
import type { UseCaseContext } from "../shared/use-case-context";
import { selectInternalTransactions, toInternalTransactionView } from "./internal-transaction-view";

const it = internalTransactions;

/**
 * Transfers of the caller's accounts. `budget` matches either side; the dates bound
 * effective_date, in days of each transfer's account. Default order: oldest created first (the order they were made in).
 */
export async function listInternalTransactions(
  { db, actor }: UseCaseContext,
  query: RouteInput<typeof internalTransactionRoutes.list>,
) {
  const days = await accountDayRanges(db, actor.userId, query.bank_account, [query.date_from, query.date_to]);
  const where = and(
    ownedBy(db, actor.userId),
    query.bank_account ? eq(it.bankAccountId, query.bank_account) : undefined,
    query.budget ? or(eq(it.srcBudgetId, query.budget), eq(it.dstBudgetId, query.budget)) : undefined,
    query.src_budget ? eq(it.srcBudgetId, query.src_budget) : undefined,
    query.dst_budget ? eq(it.dstBudgetId, query.dst_budget) : undefined,
    days.range(it.effectiveDate, it.bankAccountId, query.date_from, query.date_to),
  );
  const direction = query.ordering === "-created_at" ? desc : asc;
  return paginate(
    query,
    async () => (await selectInternalTransactionsCount(db).where(where))[0]?.n ?? 0,
    async ({ offset, limit }) =>
      (
        await selectInternalTransactions(db)
          .where(where)
          .orderBy(direction(it.createdAt), direction(it.id))
          .offset(offset)
          .limit(limit)
      ).map(({ row, currency }) => toInternalTransactionView(row, currency)),
  );
}

/** The count of the same join (ownedBy filters on the account row). */
const selectInternalTransactionsCount = (db: Database) =>
  db.select({ n: count() }).from(it).innerJoin(bankAccounts, eq(bankAccounts.id, it.bankAccountId));
