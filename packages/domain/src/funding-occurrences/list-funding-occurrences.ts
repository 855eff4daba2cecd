import type { fundingOccurrenceRoutes } from "@allot/contract/funding-occurrences/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";
import { and, asc, count, desc, eq, gte, inArray, lte } from "drizzle-orm";
import { inOwnedAccounts } from "../account-access/find-owned-account";
import { paginate } from "../shared/pagination";
import type { UseCaseContext } from "../shared/use-case-context";
import { selectFundingOccurrences, toFundingOccurrenceView } from "./funding-occurrence-view";

const fo = fundingOccurrences;

/** scheduled_date first by default; ties fall back to creation order, then id, for stable pages. */
function orderBy(ordering: string | undefined) {
  const direction = ordering?.startsWith("-") ? desc : asc;
  return ordering?.replace(/^-/, "") === "created_at"
    ? [direction(fo.createdAt), direction(fo.id)]
    : [direction(fo.scheduledDate), direction(fo.createdAt), direction(fo.id)];
}

/**
 * Occurrences of the caller's accounts. Filters naming someone else's account or budget simply
 * match nothing. scheduled_date is a date column, so the bounds compare as dates.
 */
export async function listFundingOccurrences(
  { db, actor }: UseCaseContext,
  query: RouteInput<typeof fundingOccurrenceRoutes.list>,
) {
  const where = and(
    inOwnedAccounts(db, fo.bankAccountId, actor.userId),
    query.bank_account ? eq(fo.bankAccountId, query.bank_account) : undefined,
    query.budget ? eq(fo.budgetId, query.budget) : undefined,
    query.date_from ? gte(fo.scheduledDate, query.date_from) : undefined,
    query.date_to ? lte(fo.scheduledDate, query.date_to) : undefined,
    query.kind ? eq(fo.kind, query.kind) : undefined,
    query.status?.length ? inArray(fo.status, query.status) : undefined,
  );
  return paginate(
    query,
    async () => (await db.select({ n: count() }).from(fo).where(where))[0]?.n ?? 0,
    async ({ offset, limit }) =>
      (
        await selectFundingOccurrences(db)
          .where(where)
          .orderBy(...orderBy(query.ordering))
          .offset(offset)
          .limit(limit)
      ).map(toFundingOccurrenceView),
  );
}
