import type { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import type { RouteInput } from "@allot/contract/http/route";
import type { Database } from "@allot/db/create-database";
import { perDatabase } from "@allot/db/per-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { ownedBy } from "../account-access/find-owned-account";
import { paginate } from "../shared/pagination";
import type { UseCaseContext } from "../shared/use-case-context";
import { loadBankAccountViews } from "./bank-account-view";

// Names sort case-insensitively, the same on PGlite (C collation) as on a PostgreSQL server.
const ORDER_COLUMNS = { name: sql`lower(${bankAccounts.name})`, created_at: bankAccounts.createdAt } as const;
type OrderField = keyof typeof ORDER_COLUMNS;

/** Filter of a statement prepared with placeholders: the user's accounts, of one type when asked. */
const ownedOfType = (db: Database, byType: boolean) =>
  and(
    ownedBy(db, sql.placeholder("userId")),
    byType ? eq(bankAccounts.accountType, sql.placeholder("accountType")) : undefined,
  );

// Every client lists its accounts first and often: count and page are built once per database
// handle, filter and ordering, not by drizzle on every request.
const accountsCount = perDatabase((db: Database, byType: boolean) =>
  db
    .select({ n: count() })
    .from(bankAccounts)
    .where(ownedOfType(db, byType))
    .prepare(`bank_accounts_count_${byType ? "of_type" : "all"}`),
);

const accountsPage = perDatabase((db: Database, key: `${string}:${"of_type" | "all"}`) => {
  const [ordering = "", filter] = key.split(":");
  const field = (ordering.replace(/^-/, "") || "name") as OrderField;
  const direction = ordering.startsWith("-") ? desc : asc;
  return db
    .select()
    .from(bankAccounts)
    .where(ownedOfType(db, filter === "of_type"))
    .orderBy(direction(ORDER_COLUMNS[field]), asc(bankAccounts.id))
    .offset(sql.placeholder("offset"))
    .limit(sql.placeholder("limit"))
    .prepare(`bank_accounts_page_${ordering.replace("-", "desc_") || "default"}_${filter}`);
});

/** The caller's accounts only (staff included), optionally of one type. */
export async function listBankAccounts(
  { db, actor }: UseCaseContext,
  query: RouteInput<typeof bankAccountRoutes.list>,
) {
  const byType = query.account_type !== undefined;
  const params = { userId: actor.userId, accountType: query.account_type };
  return paginate(
    query,
    async () => (await accountsCount(db, byType).execute(params))[0]?.n ?? 0,
    async ({ offset, limit }) =>
      loadBankAccountViews(
        db,
        await accountsPage(db, `${query.ordering ?? ""}:${byType ? "of_type" : "all"}`).execute({
          ...params,
          offset,
          limit,
        }),
      ),
  );
}
