import { z } from "zod";
import { booleanField, noContent, orderingField, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { BUDGET_ORDERING, BudgetSchema, BudgetUpdateResultSchema, budgetFields } from "./budget";
import { BUDGET_TYPES } from "./budget-kinds";

const tags = ["budgets"];
const id = uuidField().meta({ description: "The budget's id." });
const optionalFields = z.object(budgetFields).partial().shape;
const required = {
  name: budgetFields.name,
  funding_type: budgetFields.funding_type,
  target_balance: budgetFields.target_balance,
};

/** The budgets routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const budgetRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/v1/budgets/",
    status: 200,
    summary: "Budgets of the caller's accounts (the Unallocated budget and fill-up goals included)",
    description:
      "Budgets of the caller's accounts, including each account's Unallocated budget and the fill-up goals of Recurring budgets, paginated. Filter by account, type, archived, paused or name.",
    tags,
    access: "user",
    input: z.object({
      archived: booleanField()
        .meta({ description: "Only archived (true) or active (false) budgets; absent: both." })
        .optional(),
      bank_account: uuidField().meta({ description: "Only budgets of this account." }).optional(),
      budget_type: z
        .enum(BUDGET_TYPES)
        .meta({
          description: "Only budgets of this type: `G` goal, `R` recurring, `A` fill-up goal, `C` capped.",
        })
        .optional(),
      paused: booleanField()
        .meta({ description: "Only paused (true) or unpaused (false) budgets." })
        .optional(),
      search: z.string().max(200).meta({ description: "Substring of the name, any case." }).optional(),
      ordering: orderingField(BUDGET_ORDERING).optional(),
      ...pageQuery,
    }),
    output: paginated(BudgetSchema),
  }),

  create: defineRoute({
    method: "POST",
    path: "/v1/budgets/",
    status: 201,
    summary: "Create a budget; a Recurring one gets its fill-up goal in the same transaction",
    description:
      "Creates a budget in an account the caller co-owns. Required: `name`, `bank_account`, `budget_type`, `funding_type`, `target_balance`. Amounts are in the account's currency. A Recurring budget (`R`) also gets its associated fill-up goal (`A`), in the same transaction. `funding_schedule` is an RRULE; `recurrence_schedule` a WEEKLY, MONTHLY or YEARLY RRULE.",
    tags,
    access: "user",
    events: ["budget.created"],
    input: z.object({
      ...optionalFields,
      ...required,
      bank_account: budgetFields.bank_account,
      budget_type: budgetFields.budget_type,
    }),
    output: BudgetSchema,
  }),

  get: defineRoute({
    method: "GET",
    path: "/v1/budgets/{id}/",
    status: 200,
    summary: "Retrieve a budget",
    description: "One budget, with its balance, next funding and funding pace.",
    tags,
    access: "user",
    input: z.object({ id }),
    output: BudgetSchema,
  }),

  replace: defineRoute({
    method: "PUT",
    path: "/v1/budgets/{id}/",
    status: 200,
    summary: "Replace the writable fields; bank_account and budget_type may only repeat the stored value",
    description:
      "Replaces the writable fields. `bank_account` and `budget_type` may only repeat their stored values; balances are never written. The answer carries `warnings`, e.g. when a schedule change moves the next funding.",
    tags,
    access: "user",
    events: ["budget.updated", "budget.paused", "budget.resumed"],
    input: z.object({ id, ...optionalFields, ...required }),
    output: BudgetUpdateResultSchema,
  }),

  update: defineRoute({
    method: "PATCH",
    path: "/v1/budgets/{id}/",
    status: 200,
    summary: "Update some writable fields",
    description:
      "Updates some writable fields; the answer carries `warnings` about the change's effect on funding. Setting `paused` stops or resumes scheduled funding.",
    tags,
    access: "user",
    events: ["budget.updated", "budget.paused", "budget.resumed"],
    input: z.object({ id, ...optionalFields }),
    output: BudgetUpdateResultSchema,
  }),

  delete: defineRoute({
    method: "DELETE",
    path: "/v1/budgets/{id}/",
    status: 204,
    summary:
      "Delete a budget and its fill-up goal: transfers with other budgets are reversed, the rest goes to Unallocated",
    description:
      "Deletes the budget and its fill-up goal. Transfers between them and other budgets are reversed on those budgets; any remaining balance goes to Unallocated. A budget with allocations cannot be deleted (400: archive it instead); the Unallocated budget never (403).",
    tags,
    access: "user",
    events: ["budget.deleted"],
    operationId: "budgets-remove",
    input: z.object({ id }),
    output: noContent(),
  }),

  archive: defineRoute({
    method: "POST",
    path: "/v1/budgets/{id}/archive/",
    status: 200,
    summary: "Archive a budget (and its fill-up goal); their balances move to Unallocated",
    description:
      "Archives the budget and, for a Recurring one, its fill-up goal: their balances move to the Unallocated budget and they are no longer funded. The Unallocated budget cannot be archived (403). Archiving is not undone through the API.",
    tags,
    access: "user",
    events: ["budget.archived"],
    input: z.object({ id }),
    output: BudgetSchema,
  }),
};
