import { z } from "zod";
import { hasControlCharacters, nameText } from "../http/control-characters";
import { dateTimeOutput } from "../http/fields";

export const CATEGORY_SCOPES = ["global", "mine", "shared"] as const;
export const CATEGORY_PART_MAX = 100;
export const CATEGORY_ORDERING = ["group", "name", "full_name", "created_at"] as const;

const CATEGORY_DOCS = {
  group: "The category's group, up to 100 characters; whitespace is collapsed.",
  name: "The category's name within its group, up to 100 characters; whitespace is collapsed.",
};

export const TransactionCategorySchema = z
  .object({
    id: z.uuid().meta({ description: "The category's id.", example: "0e2f4a6c-8b1d-4e3f-a5c7-9e1b3d5f7a9c" }),
    group: z.string().meta({ description: CATEGORY_DOCS.group, example: "Food" }),
    name: z.string().meta({ description: CATEGORY_DOCS.name, example: "Groceries" }),
    full_name: z.string().meta({ description: "`{group} : {name}`", example: "Food : Groceries" }),
    owner: z
      .string()
      .nullable()
      .meta({ description: "The owner's username; null for a global category.", example: "ada@example.com" }),
    archived: z.boolean().meta({
      description: "Hidden from pickers; still valid where transactions and allocations reference it.",
      example: false,
    }),
    created_at: dateTimeOutput().meta({ description: "When the category was created." }),
    modified_at: dateTimeOutput().meta({ description: "When it last changed." }),
  })
  .meta({ id: "TransactionCategory", description: "A category for transactions and allocations." });

/**
 * A group or a name: trimmed with inner whitespace collapsed before the length checks, so
 * "  Food   & Drink " is stored as "Food & Drink". The domain normalises again for other callers.
 * A text with control characters is left as sent, for nameText to refuse (collapsing would turn
 * a line break or a tab into a space).
 */
const categoryPart = () =>
  z.preprocess(
    (input: string) => {
      const v: unknown = input;
      return typeof v === "string" && !hasControlCharacters(v) ? v.trim().replace(/\s+/g, " ") : v;
    },
    nameText()
      .min(1, "This field may not be blank.")
      .max(CATEGORY_PART_MAX, `Ensure this field has no more than ${CATEGORY_PART_MAX} characters.`),
  );

export const categoryFields = {
  group: categoryPart().meta({ description: CATEGORY_DOCS.group, example: "Food" }),
  name: categoryPart().meta({ description: CATEGORY_DOCS.name, example: "Groceries" }),
};
