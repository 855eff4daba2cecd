import type { allocationRoutes } from "@allot/contract/allocations/routes";
import type { RouteInput } from "@allot/contract/http/route";
import type { Database } from "@allot/db/create-database";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { and, asc, count, desc, eq, exists, isNotNull, isNull, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import { inOwnedAccounts } from "../account-access/find-owned-account";
import { normaliseCategoryPart } from "../categories/visible-categories";
import { paginate } from "../shared/pagination";
import type { UseCaseContext } from "../shared/use-case-context";
import { selectAllocationViews, toAllocationView } from "./allocation-view";

export interface AllocationFilters {
  bank_account?: string;
  budget?: string;
  category?: string;
  transaction?: string;
  category_group?: string;
  uncategorized?: boolean;
  ordering?: string;
}

const al = transactionAllocations;
const qb = new QueryBuilder();

/** The caller's accounts' allocations, filtered; category filters read the allocation's own category. */
export function allocationListCondition(db: Database, userId: number, f: AllocationFilters) {
  return and(
    inOwnedAccounts(db, al.bankAccountId, userId),
    f.bank_account ? eq(al.bankAccountId, f.bank_account) : undefined,
    f.budget ? eq(al.budgetId, f.budget) : undefined,
    f.category ? eq(al.categoryId, f.category) : undefined,
    f.transaction ? eq(al.transactionId, f.transaction) : undefined,
    f.category_group !== undefined
      ? exists(
          qb
            .select({ one: sql`1` })
            .from(transactionCategories)
            .where(
              and(
                eq(transactionCategories.id, al.categoryId),
                sql`lower(${transactionCategories.group}) = lower(${normaliseCategoryPart(f.category_group)})`,
              ),
            ),
        )
      : undefined,
    f.uncategorized === undefined
      ? undefined
      : f.uncategorized
        ? isNull(al.categoryId)
        : isNotNull(al.categoryId),
  );
}

/** A page of allocations, oldest first unless `ordering=-created_at`. */
export async function listAllocations(
  { db, actor }: UseCaseContext,
  query: RouteInput<typeof allocationRoutes.list>,
) {
  const where = allocationListCondition(db, actor.userId, query);
  const direction = query.ordering?.startsWith("-") ? desc : asc;
  return paginate(
    query,
    async () => (await db.select({ n: count() }).from(al).where(where))[0]?.n ?? 0,
    async ({ offset, limit }) =>
      (
        await selectAllocationViews(db)
          .where(where)
          .orderBy(direction(al.createdAt), direction(al.id))
          .offset(offset)
          .limit(limit)
      ).map(toAllocationView),
  );
}
