import type { Database } from "@allot/db/create-database";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { eq } from "drizzle-orm";
import type { Actor } from "../shared/actor";
import { loadCategoryView } from "./category-views";
import { findOwnedCategory } from "./find-owned-category";

/**
 * Hide one's own category from pickers. Existing references stay valid and it stays retrievable.
 * Archiving an archived category answers it unchanged (a retried request is harmless).
 */
export async function archiveCategory(db: Database, actor: Actor, id: string) {
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
