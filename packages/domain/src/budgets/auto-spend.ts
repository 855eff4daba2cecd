import type { Tx } from "@allot/db/create-database";
import { findVisibleCategoryByFullName, formatFullName } from "../categories/visible-categories";
import { addError, type FieldErrors } from "../shared/validation";

/**
 * auto_spend entries as stored: each must name a category the user can see (case-insensitive,
 * whitespace-normalised), kept in its canonical "Group : Name" form; duplicates collapse to one.
 * An archived category takes no new entries, but one the budget already lists (`stored`) stays
 * valid, so sending a budget back unchanged keeps working after one of its categories is archived.
 */
export async function canonicalAutoSpend(
  tx: Tx,
  userId: number,
  entries: string[],
  stored: string[],
  errors: FieldErrors,
): Promise<string[]> {
  const listed = new Set(stored.map((name) => name.toLowerCase()));
  const canonical: string[] = [];
  for (const entry of entries) {
    const category = await findVisibleCategoryByFullName(tx, userId, entry);
    if (!category) {
      addError(errors, "auto_spend", `Unknown category "${entry}".`);
      continue;
    }
    const name = formatFullName(category.group, category.name);
    if (category.archived && !listed.has(name.toLowerCase())) {
      addError(errors, "auto_spend", `Category "${name}" is archived.`);
      continue;
    }
    if (!canonical.includes(name)) canonical.push(name);
  }
  return canonical;
}
