import type { Database } from "@allot/db/create-database";
import { users } from "@allot/db/schema/users";
import { asc, count, desc } from "drizzle-orm";
import { type PageRequest, paginate } from "../shared/pagination";
import { toUserView } from "./user-view";

const ORDER_COLUMNS = { username: users.username, email: users.email, created_at: users.createdAt } as const;

/** Every user, for staff; ordered by username unless asked otherwise. */
export async function listUsers(db: Database, query: PageRequest & { ordering?: string }, baseUrl: string) {
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
      ).map((row) => toUserView(row, baseUrl)),
  );
}
