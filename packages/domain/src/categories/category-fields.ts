import { CATEGORY_PART_MAX } from "@allot/contract/transaction-categories/transaction-category";
import { ValidationFailed } from "../shared/errors";
import { normaliseCategoryPart } from "./visible-categories";

export interface CategoryParts {
  group: string;
  name: string;
}

/**
 * Normalised group and name, or a 400 per offending field: each 1–100 characters after trimming and
 * collapsing whitespace. A colon in the group is refused: "group : name" texts are split on the
 * first colon, so such a group could never be found again by its full name.
 */
export function checkCategoryParts<P extends Partial<CategoryParts>>(input: P): P {
  const errors: Record<string, string[]> = {};
  const out: Partial<CategoryParts> = {};
  for (const field of ["group", "name"] as const) {
    const raw = input[field];
    if (raw === undefined) continue;
    const value = normaliseCategoryPart(raw);
    if (!value) errors[field] = ["This field may not be blank."];
    else if (value.length > CATEGORY_PART_MAX)
      errors[field] = [`Ensure this field has no more than ${CATEGORY_PART_MAX} characters.`];
    else if (field === "group" && value.includes(":")) errors[field] = ["A group may not contain a colon."];
    else out[field] = value;
  }
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  return out as P;
}
