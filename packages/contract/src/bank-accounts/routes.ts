import { z } from "zod";
import { dateField, noContent, orderingField, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { ACCOUNT_TYPES, BankAccountSchema, bankAccountFields } from "./bank-account";

const tags = ["bank-accounts"];
const id = uuidField().meta({ description: "The bank account's id." });
const optionalFields = z.object(bankAccountFields).partial().shape;

/** The bank accounts routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const bankAccountRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/v1/bank-accounts/",
    status: 200,
    summary: "The caller's bank accounts",
    description: "The accounts the caller co-owns, paginated, optionally filtered by `account_type`.",
    tags,
    access: "user",
    input: z.object({
      account_type: z
        .enum(ACCOUNT_TYPES)
        .meta({ description: "Only accounts of this type: `C` checking, `S` savings, `X` credit card." })
        .optional(),
      ordering: orderingField(["name", "created_at"]).optional(),
      ...pageQuery,
    }),
    output: paginated(BankAccountSchema),
  }),

  create: defineRoute({
    method: "POST",
    path: "/v1/bank-accounts/",
    status: 201,
    summary: "Create a bank account; the caller owns it and its Unallocated budget is created",
    description:
      "Creates an account owned by the caller, together with its Unallocated budget. `currency` defaults to the bank's; `posted_balance` and `available_balance` are the opening balances, set only here. `bank`, `account_type` and `currency` cannot change later.",
    tags,
    access: "user",
    events: ["bank_account.created"],
    input: z.object({ ...optionalFields, name: bankAccountFields.name, bank: bankAccountFields.bank }),
    output: BankAccountSchema,
  }),

  get: defineRoute({
    method: "GET",
    path: "/v1/bank-accounts/{id}/",
    status: 200,
    summary: "Retrieve a bank account",
    description: "One account the caller co-owns, with its balances and import state.",
    tags,
    access: "user",
    input: z.object({ id }),
    output: BankAccountSchema,
  }),

  replace: defineRoute({
    method: "PUT",
    path: "/v1/bank-accounts/{id}/",
    status: 200,
    summary: "Replace the mutable fields (name, account_number, auto_funding_enabled)",
    description:
      "Replaces `name`, `account_number` and `auto_funding_enabled`. `bank`, `account_type`, `currency` and the balances may only repeat their stored values; a change is refused with 400.",
    tags,
    access: "user",
    events: ["bank_account.updated"],
    input: z.object({ id, ...optionalFields, name: bankAccountFields.name, bank: bankAccountFields.bank }),
    output: BankAccountSchema,
  }),

  update: defineRoute({
    method: "PATCH",
    path: "/v1/bank-accounts/{id}/",
    status: 200,
    summary: "Update some mutable fields",
    description:
      "Updates some of `name`, `account_number` and `auto_funding_enabled`; the immutable fields are refused with 400 when changed.",
    tags,
    access: "user",
    events: ["bank_account.updated"],
    input: z.object({ id, ...optionalFields }),
    output: BankAccountSchema,
  }),

  delete: defineRoute({
    method: "DELETE",
    path: "/v1/bank-accounts/{id}/",
    status: 204,
    summary: "Delete the account with its budgets, transactions and allocations (interactive login only)",
    description:
      "Deletes the account and everything under it: budgets, transactions, allocations, transfers, funding events, invitations. Irreversible. Needs an interactive login: an API key gets 403.",
    tags,
    access: "interactive",
    events: { none: "the account's events are deleted with it" },
    operationId: "bankAccounts-remove",
    input: z.object({ id }),
    output: noContent(),
  }),

  markImported: defineRoute({
    method: "POST",
    path: "/v1/bank-accounts/{id}/mark-imported/",
    status: 200,
    summary: "Record a completed import; last_posted_through never moves backwards",
    description:
      "Records a completed import: `last_imported_at` becomes now and `last_posted_through` advances to the given date (never backwards). The funding engine does not process events dated after `last_posted_through`.",
    tags,
    access: "user",
    events: ["bank_account.imported"],
    input: z.object({
      id,
      last_posted_through: dateField().meta({
        description:
          "The latest posted date the import covered; an earlier date than the stored one leaves it.",
        example: "2026-05-01",
      }),
    }),
    output: BankAccountSchema,
  }),
};
