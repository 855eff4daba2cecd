import type { Database } from "@allot/db/create-database";
import type { Actor } from "../shared/actor";
import { loadCategoryView } from "./category-views";
import { categoryNotFound } from "./find-owned-category";
import { findVisibleCategory } from "./visible-categories";

/** A visible category, archived or not; anything else is 404. */
export async function getCategory(db: Database, actor: Actor, id: string) {
  const row = await findVisibleCategory(db, actor.userId, id);
  if (!row) throw categoryNotFound();
  return loadCategoryView(db, row);
}
