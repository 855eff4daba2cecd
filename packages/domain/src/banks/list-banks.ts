import type { bankRoutes } from "@allot/contract/banks/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { banks } from "@allot/db/schema/banks";
import { asc, count, desc } from "drizzle-orm";
import { paginate } from "../shared/pagination";
import type { PublicContext } from "../shared/use-case-context";
import { toBankView } from "./bank-view";

const ORDER_COLUMNS = { name: banks.name, created_at: banks.createdAt } as const;

export async function listBanks({ db }: PublicContext, query: RouteInput<typeof bankRoutes.list>) {
  const field = (query.ordering ?? "name").replace(/^-/, "") as keyof typeof ORDER_COLUMNS;
  const direction = query.ordering?.startsWith("-") ? desc : asc;
  return paginate(
    query,
    async () => (await db.select({ n: count() }).from(banks))[0]?.n ?? 0,
    async ({ offset, limit }) =>
      (
        await db
          .select()
          .from(banks)
          .orderBy(direction(ORDER_COLUMNS[field]), asc(banks.id))
          .offset(offset)
          .limit(limit)
      ).map(toBankView),
  );
}
