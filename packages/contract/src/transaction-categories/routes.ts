import { z } from "zod";
import { booleanField, noContent, orderingField, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import {
  CATEGORY_ORDERING,
  CATEGORY_SCOPES,
  categoryFields,
  TransactionCategorySchema,
} from "./transaction-category";

const tags = ["transaction-categories"];
const id = uuidField();

export const listTransactionCategoriesRoute = defineRoute({
  method: "GET",
  path: "/v1/transaction-categories/",
  status: 200,
  summary:
    "Visible categories: global, the caller's own, co-owners', and those the caller's transactions still reference",
  tags,
  access: "user",
  input: z.object({
    group: z.string().max(200).optional().meta({ description: "Exact group, case-insensitive." }),
    archived: booleanField()
      .optional()
      .meta({ description: "Absent: archived and active alike. Pickers pass false." }),
    scope: z
      .enum(CATEGORY_SCOPES)
      .optional()
      .meta({ description: "global: no owner; mine: the caller's; shared: another user's visible ones." }),
    search: z.string().max(200).optional().meta({ description: "Substring of the group or name, any case." }),
    ordering: orderingField(CATEGORY_ORDERING).optional(),
    ...pageQuery,
  }),
  output: paginated(TransactionCategorySchema),
});

export const createTransactionCategoryRoute = defineRoute({
  method: "POST",
  path: "/v1/transaction-categories/",
  status: 201,
  summary: "Create a category owned by the caller; duplicates of a global or own category are refused",
  tags,
  access: "user",
  input: z.object(categoryFields),
  output: TransactionCategorySchema,
});

export const getTransactionCategoryRoute = defineRoute({
  method: "GET",
  path: "/v1/transaction-categories/{id}/",
  status: 200,
  summary: "Retrieve a visible category (archived ones included)",
  tags,
  access: "user",
  input: z.object({ id }),
  output: TransactionCategorySchema,
});

export const replaceTransactionCategoryRoute = defineRoute({
  method: "PUT",
  path: "/v1/transaction-categories/{id}/",
  status: 200,
  summary: "Rename a category (owner only)",
  tags,
  access: "user",
  input: z.object({ id, ...categoryFields }),
  output: TransactionCategorySchema,
});

export const updateTransactionCategoryRoute = defineRoute({
  method: "PATCH",
  path: "/v1/transaction-categories/{id}/",
  status: 200,
  summary: "Change the group or the name of a category (owner only)",
  tags,
  access: "user",
  input: z.object({ id, ...z.object(categoryFields).partial().shape }),
  output: TransactionCategorySchema,
});

export const deleteTransactionCategoryRoute = defineRoute({
  method: "DELETE",
  path: "/v1/transaction-categories/{id}/",
  status: 204,
  summary: "Delete a category (owner only); 409 while transactions or allocations reference it",
  tags,
  access: "user",
  input: z.object({ id }),
  output: noContent(),
});

export const archiveTransactionCategoryRoute = defineRoute({
  method: "POST",
  path: "/v1/transaction-categories/{id}/archive/",
  status: 200,
  summary: "Archive a category (owner only): hidden from pickers, still valid where referenced",
  tags,
  access: "user",
  input: z.object({ id }),
  output: TransactionCategorySchema,
});
