import type { budgetRoutes } from "@allot/contract/budgets/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { budgets } from "@allot/db/schema/budgets";
import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { paginate } from "../shared/pagination";
import type { UseCaseContext } from "../shared/use-case-context";
import { loadBudgetViews } from "./budget-view";
import { budgetOwnedBy } from "./find-owned-budget";

// Names sort case-insensitively, the same on PGlite (C collation) as on a PostgreSQL server.
const ORDER_COLUMNS = {
  name: sql`lower(${budgets.name})`,
  created_at: budgets.createdAt,
  balance: budgets.balance,
} as const;

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Budgets of the caller's accounts. A bank_account the caller does not own simply matches nothing.
 * Absent filters do not filter (archived budgets are listed unless `archived=false`).
 */
export async function listBudgets(
  { db, actor }: UseCaseContext,
  query: RouteInput<typeof budgetRoutes.list>,
) {
  const field = (query.ordering ?? "name").replace(/^-/, "") as keyof typeof ORDER_COLUMNS;
  const direction = query.ordering?.startsWith("-") ? desc : asc;
  const where = and(
    budgetOwnedBy(db, actor.userId),
    query.archived === undefined ? undefined : eq(budgets.archived, query.archived),
    query.bank_account ? eq(budgets.bankAccountId, query.bank_account) : undefined,
    query.budget_type ? eq(budgets.budgetType, query.budget_type) : undefined,
    query.paused === undefined ? undefined : eq(budgets.paused, query.paused),
    query.search
      ? sql`lower(${budgets.name}) like ${`%${likeLiteral(query.search.toLowerCase())}%`} escape '\\'`
      : undefined,
  );
  return paginate(
    query,
    async () => (await db.select({ n: count() }).from(budgets).where(where))[0]?.n ?? 0,
    async ({ offset, limit }) =>
      loadBudgetViews(
        db,
        await db
          .select()
          .from(budgets)
          .where(where)
          .orderBy(direction(ORDER_COLUMNS[field]), asc(budgets.id))
          .offset(offset)
          .limit(limit),
      ),
  );
}
