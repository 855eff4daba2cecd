import type { listBankAccountsRoute } from "@allot/contract/bank-accounts/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { paginate } from "../shared/pagination";
import type { UseCaseContext } from "../shared/use-case-context";
import { loadBankAccountViews } from "./bank-account-view";
import { ownedBy } from "./find-owned-account";

// Names sort case-insensitively, the same on PGlite (C collation) as on a PostgreSQL server.
const ORDER_COLUMNS = { name: sql`lower(${bankAccounts.name})`, created_at: bankAccounts.createdAt } as const;

/** The caller's accounts only (staff included), optionally of one type. */
export async function listBankAccounts(
  { db, actor }: UseCaseContext,
  query: RouteInput<typeof listBankAccountsRoute>,
) {
  const field = (query.ordering ?? "name").replace(/^-/, "") as keyof typeof ORDER_COLUMNS;
  const direction = query.ordering?.startsWith("-") ? desc : asc;
  const where = and(
    ownedBy(db, actor.userId),
    query.account_type ? eq(bankAccounts.accountType, query.account_type) : undefined,
  );
  return paginate(
    query,
    async () => (await db.select({ n: count() }).from(bankAccounts).where(where))[0]?.n ?? 0,
    async ({ offset, limit }) =>
      loadBankAccountViews(
        db,
        await db
          .select()
          .from(bankAccounts)
          .where(where)
          .orderBy(direction(ORDER_COLUMNS[field]), asc(bankAccounts.id))
          .offset(offset)
          .limit(limit),
      ),
  );
}
