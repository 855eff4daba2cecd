import { z } from "zod";
import { dateField, noContent, orderingField, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { ACCOUNT_TYPES, BankAccountSchema, bankAccountFields } from "./bank-account";

const tags = ["bank-accounts"];
const id = uuidField();
const optionalFields = z.object(bankAccountFields).partial().shape;

export const listBankAccountsRoute = defineRoute({
  method: "GET",
  path: "/v1/bank-accounts/",
  status: 200,
  summary: "The caller's bank accounts",
  tags,
  access: "user",
  input: z.object({
    account_type: z.enum(ACCOUNT_TYPES).optional(),
    ordering: orderingField(["name", "created_at"]).optional(),
    ...pageQuery,
  }),
  output: paginated(BankAccountSchema),
});

export const createBankAccountRoute = defineRoute({
  method: "POST",
  path: "/v1/bank-accounts/",
  status: 201,
  summary: "Create a bank account; the caller owns it and its Unallocated budget is created",
  tags,
  access: "user",
  input: z.object({ ...optionalFields, name: bankAccountFields.name, bank: bankAccountFields.bank }),
  output: BankAccountSchema,
});

export const getBankAccountRoute = defineRoute({
  method: "GET",
  path: "/v1/bank-accounts/{id}/",
  status: 200,
  summary: "Retrieve a bank account",
  tags,
  access: "user",
  input: z.object({ id }),
  output: BankAccountSchema,
});

export const replaceBankAccountRoute = defineRoute({
  method: "PUT",
  path: "/v1/bank-accounts/{id}/",
  status: 200,
  summary: "Replace the mutable fields (name, account_number, auto_funding_enabled)",
  tags,
  access: "user",
  input: z.object({ id, ...optionalFields, name: bankAccountFields.name, bank: bankAccountFields.bank }),
  output: BankAccountSchema,
});

export const updateBankAccountRoute = defineRoute({
  method: "PATCH",
  path: "/v1/bank-accounts/{id}/",
  status: 200,
  summary: "Update some mutable fields",
  tags,
  access: "user",
  input: z.object({ id, ...optionalFields }),
  output: BankAccountSchema,
});

export const deleteBankAccountRoute = defineRoute({
  method: "DELETE",
  path: "/v1/bank-accounts/{id}/",
  status: 204,
  summary: "Delete the account with its budgets, transactions and allocations (interactive login only)",
  tags,
  access: "interactive",
  input: z.object({ id }),
  output: noContent(),
});

export const markImportedRoute = defineRoute({
  method: "POST",
  path: "/v1/bank-accounts/{id}/mark-imported/",
  status: 200,
  summary: "Record a completed import; last_posted_through never moves backwards",
  tags,
  access: "user",
  input: z.object({ id, last_posted_through: dateField() }),
  output: BankAccountSchema,
});
