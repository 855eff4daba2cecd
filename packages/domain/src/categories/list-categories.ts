import type { RouteInput } from "@allot/contract/http/route";
import type { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import type { CATEGORY_ORDERING } from "@allot/contract/transaction-categories/transaction-category";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { and, asc, count, desc, eq, isNotNull, isNull, ne, type SQL, sql } from "drizzle-orm";
import { paginate } from "../shared/pagination";
import type { UseCaseContext } from "../shared/use-case-context";
import { loadCategoryViews } from "./category-views";
import { normaliseCategoryPart, visibleCategoryCondition } from "./visible-categories";

type OrderField = (typeof CATEGORY_ORDERING)[number];

type ListCategoriesQuery = RouteInput<typeof transactionCategoryRoutes.list>;

const c = transactionCategories;
// lower(): the same case-insensitive order on PGlite (C collation) as on a PostgreSQL server.
const group = sql`lower(${c.group})`;
const name = sql`lower(${c.name})`;
const ORDER_KEYS: Record<OrderField, SQL[]> = {
  group: [group, name],
  name: [name, group],
  full_name: [sql`lower(${c.group} || ' : ' || ${c.name})`],
  created_at: [sql`${c.createdAt}`],
};

/** `%`, `_` and `\` taken literally in an ILIKE pattern. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

function scopeCondition(scope: ListCategoriesQuery["scope"], userId: number) {
  if (scope === "global") return isNull(c.ownerId);
  if (scope === "mine") return eq(c.ownerId, userId);
  // Another user's category the caller can see: a co-owner's, or one still referenced.
  if (scope === "shared") return and(isNotNull(c.ownerId), ne(c.ownerId, userId));
  return undefined;
}

/**
 * The visible categories. Absent filters do not filter: without `archived` the list holds archived
 * and active categories alike (a picker asks for `archived=false`). Default order: group, then name.
 */
export async function listCategories({ db, actor }: UseCaseContext, query: ListCategoriesQuery) {
  const search = query.search ? normaliseCategoryPart(query.search) : "";
  const groupFilter = query.group !== undefined ? normaliseCategoryPart(query.group) : undefined;
  const where = and(
    visibleCategoryCondition(actor.userId),
    groupFilter !== undefined ? sql`lower(${c.group}) = lower(${groupFilter})` : undefined,
    query.archived !== undefined ? eq(c.archived, query.archived) : undefined,
    scopeCondition(query.scope, actor.userId),
    // The full name holds every substring of the group and of the name, and "drink : groc" too.
    search ? sql`(${c.group} || ' : ' || ${c.name}) ilike ${likePattern(search)}` : undefined,
  );
  const field = (query.ordering ?? "group").replace(/^-/, "") as OrderField;
  const direction = query.ordering?.startsWith("-") ? desc : asc;
  return paginate(
    query,
    async () => (await db.select({ n: count() }).from(c).where(where))[0]?.n ?? 0,
    async ({ offset, limit }) =>
      loadCategoryViews(
        db,
        await db
          .select()
          .from(c)
          .where(where)
          .orderBy(...ORDER_KEYS[field].map((key) => direction(key)), asc(c.id))
          .offset(offset)
          .limit(limit),
      ),
  );
}
