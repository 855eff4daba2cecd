import { z } from "zod";
import { booleanField, orderingField, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { ALLOCATION_ORDERING, TransactionAllocationSchema } from "./allocation";

const tags = ["allocations"];

export const listAllocationsRoute = defineRoute({
  method: "GET",
  path: "/v1/allocations/",
  status: 200,
  summary: "Allocations of the caller's accounts (oldest first unless ordered otherwise)",
  tags,
  access: "user",
  input: z.object({
    bank_account: uuidField().optional(),
    budget: uuidField().optional(),
    category: uuidField().optional(),
    transaction: uuidField().optional(),
    category_group: z
      .string()
      .max(200)
      .optional()
      .meta({ description: "The allocation's category group, exact, any case." }),
    uncategorized: booleanField()
      .optional()
      .meta({ description: "true: allocations without a category; false: with one." }),
    ordering: orderingField(ALLOCATION_ORDERING).optional(),
    ...pageQuery,
  }),
  output: paginated(TransactionAllocationSchema),
});

export const getAllocationRoute = defineRoute({
  method: "GET",
  path: "/v1/allocations/{id}/",
  status: 200,
  summary: "Retrieve an allocation",
  tags,
  access: "user",
  input: z.object({ id: uuidField() }),
  output: TransactionAllocationSchema,
});
