import type { RouteInput } from "@allot/contract/http/route";
import type { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { isUniqueViolation } from "@allot/db/database-errors";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import type { UseCaseContext } from "../shared/use-case-context";
import { checkCategoryParts } from "./category-fields";
import { loadCategoryView } from "./category-views";
import { duplicateCategory, hasDuplicateCategory } from "./find-owned-category";

/**
 * A category owned by the caller. A global or own category with the same group and name in any
 * case is a 400 on non_field_errors; a co-owner's namesake does not count.
 */
export async function createCategory(
  { db, actor }: UseCaseContext,
  input: RouteInput<typeof transactionCategoryRoutes.create>,
) {
  const parts = checkCategoryParts(input);
  try {
    return await db.transaction(async (tx) => {
      if (await hasDuplicateCategory(tx, actor.userId, parts)) throw duplicateCategory(parts);
      const [row] = await tx
        .insert(transactionCategories)
        .values({ group: parts.group, name: parts.name, ownerId: actor.userId })
        .returning();
      if (!row) throw new Error("category insert returned nothing");
      return loadCategoryView(tx, row);
    });
  } catch (error) {
    // Two creates of the same name at once: the owner's unique index refuses the second.
    if (isUniqueViolation(error)) throw duplicateCategory(parts);
    throw error;
  }
}
