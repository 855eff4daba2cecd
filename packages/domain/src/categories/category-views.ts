import type { Database, Tx } from "@allot/db/create-database";
import { users } from "@allot/db/schema/users";
import { inArray } from "drizzle-orm";
import { type CategoryRow, type CategoryView, toCategoryView } from "./visible-categories";

/** Wire views of category rows, with their owners' usernames fetched in one query. */
export async function loadCategoryViews(db: Database | Tx, rows: CategoryRow[]): Promise<CategoryView[]> {
  const ownerIds = [...new Set(rows.flatMap((row) => (row.ownerId === null ? [] : [row.ownerId])))];
  const owners =
    ownerIds.length === 0
      ? new Map<number, string>()
      : new Map(
          (
            await db
              .select({ id: users.id, username: users.username })
              .from(users)
              .where(inArray(users.id, ownerIds))
          ).map(({ id, username }) => [id, username]),
        );
  return rows.map((row) =>
    toCategoryView(row, row.ownerId === null ? null : (owners.get(row.ownerId) ?? null)),
  );
}

export async function loadCategoryView(db: Database | Tx, row: CategoryRow): Promise<CategoryView> {
  const [view] = await loadCategoryViews(db, [row]);
  if (!view) throw new Error("category view missing");
  return view;
}
