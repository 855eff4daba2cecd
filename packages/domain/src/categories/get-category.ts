import type { RouteInput } from "@allot/contract/http/route";
import type { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import type { UseCaseContext } from "../shared/use-case-context";
import { loadCategoryView } from "./category-views";
import { categoryNotFound } from "./find-owned-category";
import { findVisibleCategory } from "./visible-categories";

/** A visible category, archived or not; anything else is 404. */
export async function getCategory(
  { db, actor }: UseCaseContext,
  { id }: RouteInput<typeof transactionCategoryRoutes.get>,
) {
  const row = await findVisibleCategory(db, actor.userId, id);
  if (!row) throw categoryNotFound();
  return loadCategoryView(db, row);
}
