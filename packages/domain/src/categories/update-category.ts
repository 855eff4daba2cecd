import type { RouteInput } from "@allot/contract/http/route";
import type { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { isUniqueViolation } from "@allot/db/database-errors";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { eq } from "drizzle-orm";
import type { UseCaseContext } from "../shared/use-case-context";
import { followCategoryInAutoSpend } from "./auto-spend-names";
import { type CategoryParts, checkCategoryParts } from "./category-fields";
import { loadCategoryView } from "./category-views";
import { duplicateCategory, findOwnedCategory, hasDuplicateCategory } from "./find-owned-category";
import { stampCategoryUsers } from "./stamp-category-users";
import { formatFullName } from "./visible-categories";

/**
 * PUT and PATCH: rename the group and/or the name of one's own category. The result may not
 * duplicate a global category or another of the caller's own (any case); changing only the case of
 * one's own category is fine. Budgets listing the old name in auto_spend follow the rename.
 */
export async function updateCategory(
  { db, actor }: UseCaseContext,
  { id, ...input }: RouteInput<typeof transactionCategoryRoutes.update>,
) {
  const changes = checkCategoryParts(input);
  let target: CategoryParts | undefined;
  try {
    return await db.transaction(async (tx) => {
      const row = await findOwnedCategory(tx, actor, id);
      target = { group: changes.group ?? row.group, name: changes.name ?? row.name };
      if (target.group === row.group && target.name === row.name) return loadCategoryView(tx, row);
      if (await hasDuplicateCategory(tx, actor.userId, target, row.id)) throw duplicateCategory(target);
      const [updated] = await tx
        .update(transactionCategories)
        .set(target)
        .where(eq(transactionCategories.id, row.id))
        .returning();
      if (!updated) throw new Error("category update returned nothing");
      await followCategoryInAutoSpend(tx, row, formatFullName(target.group, target.name));
      await stampCategoryUsers(tx, row.id);
      return loadCategoryView(tx, updated);
    });
  } catch (error) {
    if (isUniqueViolation(error) && target) throw duplicateCategory(target);
    throw error;
  }
}
