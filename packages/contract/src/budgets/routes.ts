import { z } from "zod";
import { booleanField, noContent, orderingField, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { BUDGET_ORDERING, BudgetSchema, BudgetUpdateResultSchema, budgetFields } from "./budget";
import { BUDGET_TYPES } from "./budget-kinds";

const tags = ["budgets"];
const id = uuidField();
const optionalFields = z.object(budgetFields).partial().shape;
const required = {
  name: budgetFields.name,
  funding_type: budgetFields.funding_type,
  target_balance: budgetFields.target_balance,
};

export const listBudgetsRoute = defineRoute({
  method: "GET",
  path: "/v1/budgets/",
  status: 200,
  summary: "Budgets of the caller's accounts (the Unallocated budget and fill-up goals included)",
  tags,
  access: "user",
  input: z.object({
    archived: booleanField().optional().meta({ description: "Absent: archived and active alike." }),
    bank_account: uuidField().optional(),
    budget_type: z.enum(BUDGET_TYPES).optional(),
    paused: booleanField().optional(),
    search: z.string().max(200).optional().meta({ description: "Substring of the name, any case." }),
    ordering: orderingField(BUDGET_ORDERING).optional(),
    ...pageQuery,
  }),
  output: paginated(BudgetSchema),
});

export const createBudgetRoute = defineRoute({
  method: "POST",
  path: "/v1/budgets/",
  status: 201,
  summary: "Create a budget; a Recurring one gets its fill-up goal in the same transaction",
  tags,
  access: "user",
  input: z.object({
    ...optionalFields,
    ...required,
    bank_account: budgetFields.bank_account,
    budget_type: budgetFields.budget_type,
  }),
  output: BudgetSchema,
});

export const getBudgetRoute = defineRoute({
  method: "GET",
  path: "/v1/budgets/{id}/",
  status: 200,
  summary: "Retrieve a budget",
  tags,
  access: "user",
  input: z.object({ id }),
  output: BudgetSchema,
});

export const replaceBudgetRoute = defineRoute({
  method: "PUT",
  path: "/v1/budgets/{id}/",
  status: 200,
  summary: "Replace the writable fields; bank_account and budget_type may only repeat the stored value",
  tags,
  access: "user",
  input: z.object({ id, ...optionalFields, ...required }),
  output: BudgetUpdateResultSchema,
});

export const updateBudgetRoute = defineRoute({
  method: "PATCH",
  path: "/v1/budgets/{id}/",
  status: 200,
  summary: "Update some writable fields",
  tags,
  access: "user",
  input: z.object({ id, ...optionalFields }),
  output: BudgetUpdateResultSchema,
});

export const deleteBudgetRoute = defineRoute({
  method: "DELETE",
  path: "/v1/budgets/{id}/",
  status: 204,
  summary:
    "Delete a budget and its fill-up goal: transfers with other budgets are reversed, the rest goes to Unallocated",
  tags,
  access: "user",
  input: z.object({ id }),
  output: noContent(),
});

export const archiveBudgetRoute = defineRoute({
  method: "POST",
  path: "/v1/budgets/{id}/archive/",
  status: 200,
  summary: "Archive a budget (and its fill-up goal); their balances move to Unallocated",
  tags,
  access: "user",
  input: z.object({ id }),
  output: BudgetSchema,
});
