import { z } from "zod";
import { dateTimeOutput } from "../http/fields";

export const CATEGORY_SCOPES = ["global", "mine", "shared"] as const;
export const CATEGORY_PART_MAX = 100;
export const CATEGORY_ORDERING = ["group", "name", "full_name", "created_at"] as const;

export const TransactionCategorySchema = z
  .object({
    id: z.uuid(),
    group: z.string(),
    name: z.string(),
    full_name: z.string().meta({ description: "`{group} : {name}`" }),
    owner: z.string().nullable().meta({ description: "The owner's username; null for a global category." }),
    archived: z.boolean(),
    created_at: dateTimeOutput(),
    modified_at: dateTimeOutput(),
  })
  .meta({ id: "TransactionCategory" });

/**
 * A group or a name: trimmed with inner whitespace collapsed before the length checks, so
 * "  Food   & Drink " is stored as "Food & Drink". The domain normalises again for other callers.
 */
const categoryPart = () =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.trim().replace(/\s+/g, " ") : v),
    z
      .string()
      .min(1, "This field may not be blank.")
      .max(CATEGORY_PART_MAX, `Ensure this field has no more than ${CATEGORY_PART_MAX} characters.`),
  );

export const categoryFields = { group: categoryPart(), name: categoryPart() };
