import { z } from "zod";
import {
  currencyCode,
  dateTimeInput,
  dateTimeOutput,
  describeFields,
  moneyInput,
  moneyOutput,
  uuidField,
} from "../http/fields";

export const INTERNAL_TRANSACTION_ORDERING = ["created_at"] as const;

/** One text for each field, request and response alike. */
const INTERNAL_TRANSACTION_DOCS = {
  id: ["The transfer's id.", "8f0b2d4e-6a1c-4e3b-9d5f-7a9c1e3b5d7f"],
  bank_account: ["The id of the account both budgets belong to.", "7c4e2b19-5a3d-4f8e-a6b1-9d0c3e2f4a58"],
  amount: ["The amount moved, positive.", "75.00"],
  amount_currency: ["The account's currency (optional in a request).", "USD"],
  src_budget: ["The id of the budget the money leaves.", "e1a7c3d5-2b4f-4e6a-8c9d-0f1e2a3b4c5d"],
  dst_budget: ["The id of the budget the money goes to.", "b7d3e1f2-4a6c-4b8e-9d0f-1a2b3c4d5e6f"],
  actor: ["The user id of whoever made the transfer; null for the scheduled funding engine.", 12],
  effective_date: ["When the transfer takes effect; now when absent.", "2026-05-02T09:00:00Z"],
  src_budget_balance: ["The source budget's balance just after it.", "137.40"],
  src_budget_balance_currency: ["The account's currency.", "USD"],
  dst_budget_balance: ["The destination budget's balance just after it.", "229.20"],
  dst_budget_balance_currency: ["The account's currency.", "USD"],
  created_at: ["When the transfer was recorded.", "2026-05-02T09:00:00Z"],
  modified_at: ["When it last changed (transfers are write-once).", "2026-05-02T09:00:00Z"],
} as const;

export const InternalTransactionSchema = z
  .object(
    describeFields(
      {
        id: z.uuid(),
        bank_account: z.uuid(),
        amount: moneyOutput(),
        amount_currency: z.string(),
        src_budget: z.uuid(),
        dst_budget: z.uuid(),
        actor: z.number().int().nullable(),
        effective_date: dateTimeOutput(),
        src_budget_balance: moneyOutput(),
        src_budget_balance_currency: z.string(),
        dst_budget_balance: moneyOutput(),
        dst_budget_balance_currency: z.string(),
        created_at: dateTimeOutput(),
        modified_at: dateTimeOutput(),
      },
      INTERNAL_TRANSACTION_DOCS,
    ),
  )
  .meta({ id: "InternalTransaction", description: "A transfer between two budgets of one account." });

export const internalTransactionFields = describeFields(
  {
    bank_account: uuidField(),
    amount: moneyInput(),
    amount_currency: currencyCode().optional(),
    src_budget: uuidField(),
    dst_budget: uuidField(),
    effective_date: dateTimeInput().optional(),
  },
  INTERNAL_TRANSACTION_DOCS,
);
