import type { RouteInput } from "@allot/contract/http/route";
import type { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { isForeignKeyViolation } from "@allot/db/database-errors";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { transactions } from "@allot/db/schema/transactions";
import { eq } from "drizzle-orm";
import { Conflict } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { followCategoryInAutoSpend } from "./auto-spend-names";
import { findOwnedCategory } from "./find-owned-category";

const inUse = () =>
  new Conflict(
    "This category is still referenced by transactions or allocations; archive it instead.",
    "category_in_use",
  );

/**
 * Delete one's own category unless any transaction or allocation (of anyone: a former co-owner's
 * too) references it: 409 category_in_use. The row lock taken first conflicts with the key-share
 * lock a concurrent insert of a referencing row takes, and the restrict foreign keys back this up.
 * Its name leaves the budgets' auto_spend lists in the same transaction.
 */
export async function deleteCategory(
  { db, actor }: UseCaseContext,
  { id }: RouteInput<typeof transactionCategoryRoutes.delete>,
): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const row = await findOwnedCategory(tx, actor, id);
      const [byTransaction] = await tx
        .select({ id: transactions.id })
        .from(transactions)
        .where(eq(transactions.categoryId, row.id))
        .limit(1);
      const [byAllocation] = byTransaction
        ? [byTransaction]
        : await tx
            .select({ id: transactionAllocations.id })
            .from(transactionAllocations)
            .where(eq(transactionAllocations.categoryId, row.id))
            .limit(1);
      if (byAllocation) throw inUse();
      await tx.delete(transactionCategories).where(eq(transactionCategories.id, row.id));
      await followCategoryInAutoSpend(tx, row, null);
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw inUse();
    throw error;
  }
}
