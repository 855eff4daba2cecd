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
/** Why these writes record no activity event. */
const noEvents = { none: "categories are the user's, shared by all their accounts" };
const id = uuidField().meta({ description: "The category's id." });

/** The transaction categories routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const transactionCategoryRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/v1/transaction-categories/",
    status: 200,
    summary:
      "Visible categories: global, the caller's own, co-owners', and those the caller's transactions still reference",
    description:
      "The categories the caller can see: the global base set, the caller's own, those of users the caller co-owns an account with, and those still referenced by the caller's transactions. Filter by `scope`, `group`, `archived` or text.",
    tags,
    access: "user",
    input: z.object({
      group: z.string().max(200).meta({ description: "Exact group, case-insensitive." }).optional(),
      archived: booleanField()
        .meta({ description: "Absent: archived and active alike. Pickers pass false." })
        .optional(),
      scope: z
        .enum(CATEGORY_SCOPES)
        .meta({ description: "global: no owner; mine: the caller's; shared: another user's visible ones." })
        .optional(),
      search: z
        .string()
        .max(200)
        .meta({ description: "Substring of the group or name, any case." })
        .optional(),
      ordering: orderingField(CATEGORY_ORDERING).optional(),
      ...pageQuery,
    }),
    output: paginated(TransactionCategorySchema),
  }),

  create: defineRoute({
    method: "POST",
    path: "/v1/transaction-categories/",
    status: 201,
    summary: "Create a category owned by the caller; duplicates of a global or own category are refused",
    description:
      "Creates a category owned by the caller. `group` and `name` are whitespace-normalized; a case-insensitive duplicate of a global category or one of the caller's own is refused (400).",
    tags,
    access: "user",
    events: noEvents,
    input: z.object(categoryFields),
    output: TransactionCategorySchema,
  }),

  get: defineRoute({
    method: "GET",
    path: "/v1/transaction-categories/{id}/",
    status: 200,
    summary: "Retrieve a visible category (archived ones included)",
    description: "One visible category, archived ones included.",
    tags,
    access: "user",
    input: z.object({ id }),
    output: TransactionCategorySchema,
  }),

  replace: defineRoute({
    method: "PUT",
    path: "/v1/transaction-categories/{id}/",
    status: 200,
    summary: "Rename a category (owner only)",
    description:
      "Sets `group` and `name` of one of the caller's categories; the full name everywhere follows. Global and co-owners' categories are 403.",
    tags,
    access: "user",
    events: noEvents,
    input: z.object({ id, ...categoryFields }),
    output: TransactionCategorySchema,
  }),

  update: defineRoute({
    method: "PATCH",
    path: "/v1/transaction-categories/{id}/",
    status: 200,
    summary: "Change the group or the name of a category (owner only)",
    description:
      "Changes `group` or `name` of one of the caller's categories. Global and co-owners' categories are 403.",
    tags,
    access: "user",
    events: noEvents,
    input: z.object({ id, ...z.object(categoryFields).partial().shape }),
    output: TransactionCategorySchema,
  }),

  delete: defineRoute({
    method: "DELETE",
    path: "/v1/transaction-categories/{id}/",
    status: 204,
    summary: "Delete a category (owner only); 409 while transactions or allocations reference it",
    description:
      "Deletes one of the caller's categories. 409 while transactions or allocations reference it: archive it instead. Global and co-owners' categories are 403.",
    tags,
    access: "user",
    errors: [409],
    operationId: "transactionCategories-remove",
    events: noEvents,
    input: z.object({ id }),
    output: noContent(),
  }),

  archive: defineRoute({
    method: "POST",
    path: "/v1/transaction-categories/{id}/archive/",
    status: 200,
    summary: "Archive a category (owner only): hidden from pickers, still valid where referenced",
    description:
      "Archives one of the caller's categories: it is hidden from pickers but stays valid where transactions and allocations reference it. Global and co-owners' categories are 403.",
    tags,
    access: "user",
    events: noEvents,
    input: z.object({ id }),
    output: TransactionCategorySchema,
  }),
};
