import { z } from "zod";
import { accountFilter, booleanField, orderingField, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { ALLOCATION_ORDERING, TransactionAllocationSchema } from "./allocation";

const tags = ["allocations"];

/** The allocations routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const allocationRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/v1/allocations/",
    status: 200,
    summary: "Allocations of the caller's accounts (oldest first unless ordered otherwise)",
    description:
      "Allocations of the caller's accounts, oldest first unless `ordering` says otherwise, paginated. Allocations are written through the transaction operations (create, splits).",
    tags,
    access: "user",
    input: z.object({
      bank_account: accountFilter(),
      budget: uuidField().meta({ description: "Only allocations to this budget." }).optional(),
      category: uuidField().meta({ description: "Only allocations of this category." }).optional(),
      transaction: uuidField().meta({ description: "Only the allocations of this transaction." }).optional(),
      category_group: z
        .string()
        .max(200)
        .meta({ description: "The allocation's category group, exact, any case." })
        .optional(),
      uncategorized: booleanField()
        .meta({ description: "true: allocations without a category; false: with one." })
        .optional(),
      ordering: orderingField(ALLOCATION_ORDERING).optional(),
      ...pageQuery,
    }),
    output: paginated(TransactionAllocationSchema),
  }),

  get: defineRoute({
    method: "GET",
    path: "/v1/allocations/{id}/",
    status: 200,
    summary: "Retrieve an allocation",
    description: "One allocation: a part of a transaction assigned to a budget and a category.",
    tags,
    access: "user",
    input: z.object({ id: uuidField().meta({ description: "The allocation's id." }) }),
    output: TransactionAllocationSchema,
  }),
};
