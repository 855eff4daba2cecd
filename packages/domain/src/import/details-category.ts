import type { Tx } from "@allot/db/create-database";
import {
  type CategoryRow,
  findVisibleCategory,
  findVisibleCategoryByFullName,
  formatFullName,
  normaliseCategoryName,
} from "../categories/visible-categories";

export type CategoryLookup = { category: CategoryRow; fullName: string } | { warning: string };

/**
 * Resolves the category names of one transaction-details request, each distinct name once (a
 * batch of thousands names a handful): case-insensitive and whitespace-normalised among the
 * categories the user can see. Found ones are held FOR KEY SHARE, as a new reference by id is in
 * create, so a concurrent delete cannot pull a category out from under the rows about to use it.
 * Unknown or archived (it takes no new references): a warning instead.
 */
export function detailsCategoryResolver(tx: Tx, userId: number) {
  const cache = new Map<string, CategoryLookup>();
  return async (text: string): Promise<CategoryLookup> => {
    const key = normaliseCategoryName(text).fullName.toLowerCase();
    const cached = cache.get(key);
    if (cached) return cached;
    const lookup = await lookUp(tx, userId, text);
    cache.set(key, lookup);
    return lookup;
  };
}

async function lookUp(tx: Tx, userId: number, text: string): Promise<CategoryLookup> {
  const unknown = { warning: `Unknown category "${text}"; the transaction is left unassigned.` };
  const named = await findVisibleCategoryByFullName(tx, userId, text);
  if (!named) return unknown;
  const fullName = formatFullName(named.group, named.name);
  if (named.archived)
    return { warning: `Category "${fullName}" is archived; the transaction is left unassigned.` };
  const held = await findVisibleCategory(tx, userId, named.id, { lock: "key share" });
  return held ? { category: held, fullName } : unknown;
}
