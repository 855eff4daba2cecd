import type { Database, Tx } from "@allot/db/create-database";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { and, eq, isNull, ne, or, sql } from "drizzle-orm";
import type { Actor } from "../shared/actor";
import { Forbidden, NotFound, ValidationFailed } from "../shared/errors";
import { type CategoryRow, visibleCategoryCondition } from "./visible-categories";

export const categoryNotFound = () => new NotFound("No transaction category matches the given id.");

/**
 * A category the actor may change, locked FOR UPDATE until the transaction ends. Not visible: 404.
 * Visible but global or someone else's: 403 (docs/spec/operations.md §Categories).
 */
export async function findOwnedCategory(
  tx: Tx,
  actor: Pick<Actor, "userId">,
  id: string,
): Promise<CategoryRow> {
  const [row] = await tx
    .select()
    .from(transactionCategories)
    .where(and(eq(transactionCategories.id, id), visibleCategoryCondition(actor.userId)))
    .limit(1)
    .for("update", { of: transactionCategories });
  if (!row) throw categoryNotFound();
  if (row.ownerId === null) throw new Forbidden("Global categories cannot be changed.");
  if (row.ownerId !== actor.userId) throw new Forbidden("Only the category's owner can change it.");
  return row;
}

/** True when a global category or one of the user's own has this group and name, any case. */
export async function hasDuplicateCategory(
  db: Database | Tx,
  userId: number,
  parts: { group: string; name: string },
  exceptId?: string,
): Promise<boolean> {
  const c = transactionCategories;
  const [row] = await db
    .select({ id: c.id })
    .from(c)
    .where(
      and(
        sql`lower(${c.group}) = lower(${parts.group})`,
        sql`lower(${c.name}) = lower(${parts.name})`,
        or(isNull(c.ownerId), eq(c.ownerId, userId)),
        exceptId ? ne(c.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export const duplicateCategory = (parts: { group: string; name: string }) =>
  ValidationFailed.general(
    `A category "${parts.group} : ${parts.name}" already exists (global or your own).`,
  );
