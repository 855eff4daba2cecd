import type { RouteInput } from "@allot/contract/http/route";
import type { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { eq } from "drizzle-orm";
import type { UseCaseContext } from "../shared/use-case-context";
import { loadCategoryView } from "./category-views";
import { findOwnedCategory } from "./find-owned-category";

/**
 * Hide one's own category from pickers. Existing references stay valid and it stays retrievable.
 * Archiving an archived category answers it unchanged (a retried request is harmless).
 */
export async function archiveCategory(
  { db, actor }: UseCaseContext,
  { id }: RouteInput<typeof transactionCategoryRoutes.archive>,
) {
  return db.transaction(async (tx) => {
    const row = await findOwnedCategory(tx, actor, id);
    if (row.archived) return loadCategoryView(tx, row);
    const [updated] = await tx
      .update(transactionCategories)
      .set({ archived: true })
      .where(eq(transactionCategories.id, row.id))
      .returning();
    if (!updated) throw new Error("category archive returned nothing");
    return loadCategoryView(tx, updated);
  });
}
