import type { Tx } from "@allot/db/create-database";
import { ValidationFailed } from "../shared/errors";
import { type CategoryRow, findVisibleCategory } from "./visible-categories";

/**
 * The category a new row is about to reference by id (a transaction being created), read FOR KEY
 * SHARE: a concurrent delete either waits and then finds the reference (409), or went first and
 * the lookup finds nothing. Call after locking the account (account first, then category).
 * Not visible: 400 on `category`. Archived: 400 too — it is hidden from pickers and takes no new
 * references, while the ones it already has stay valid.
 */
export async function referenceCategory(tx: Tx, userId: number, id: string): Promise<CategoryRow> {
  const category = await findVisibleCategory(tx, userId, id, { lock: "key share" });
  if (!category) throw ValidationFailed.on("category", `Invalid pk "${id}" - object does not exist.`);
  if (category.archived) throw ValidationFailed.on("category", "This category is archived.");
  return category;
}
