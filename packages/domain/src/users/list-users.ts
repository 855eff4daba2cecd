import type { RouteInput } from "@allot/contract/http/route";
import type { userRoutes } from "@allot/contract/users/routes";
import { users } from "@allot/db/schema/users";
import { asc, count, desc } from "drizzle-orm";
import { paginate } from "../shared/pagination";
import type { PublicContext } from "../shared/use-case-context";
import { toUserView } from "./user-view";

const ORDER_COLUMNS = { username: users.username, email: users.email, created_at: users.createdAt } as const;

/** Every user, for staff; ordered by username unless asked otherwise. */
export async function listUsers(
  { db, services }: PublicContext<"publicBaseUrl">,
  query: RouteInput<typeof userRoutes.list>,
) {
  const field = (query.ordering ?? "username").replace(/^-/, "") as keyof typeof ORDER_COLUMNS;
  const direction = query.ordering?.startsWith("-") ? desc : asc;
  return paginate(
    query,
    async () => (await db.select({ n: count() }).from(users))[0]?.n ?? 0,
    async ({ offset, limit }) =>
      (
        await db
          .select()
          .from(users)
          .orderBy(direction(ORDER_COLUMNS[field]), asc(users.id))
          .offset(offset)
          .limit(limit)
      ).map((row) => toUserView(row, services.publicBaseUrl)),
  );
}
