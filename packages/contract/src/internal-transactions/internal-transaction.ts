import { z } from "zod";
import {
  currencyCode,
  dateTimeInput,
  dateTimeOutput,
  moneyInput,
  moneyOutput,
  uuidField,
} from "../http/fields";

export const INTERNAL_TRANSACTION_ORDERING = ["created_at"] as const;

export const InternalTransactionSchema = z
  .object({
    id: z.uuid(),
    bank_account: z.uuid(),
    amount: moneyOutput(),
    amount_currency: z.string(),
    src_budget: z.uuid(),
    dst_budget: z.uuid(),
    actor: z.number().int().nullable().meta({ description: "The user id of whoever made the transfer." }),
    effective_date: dateTimeOutput(),
    src_budget_balance: moneyOutput().meta({ description: "The source budget's balance just after it." }),
    src_budget_balance_currency: z.string(),
    dst_budget_balance: moneyOutput().meta({
      description: "The destination budget's balance just after it.",
    }),
    dst_budget_balance_currency: z.string(),
    created_at: dateTimeOutput(),
    modified_at: dateTimeOutput(),
  })
  .meta({ id: "InternalTransaction" });

export const internalTransactionFields = {
  bank_account: uuidField(),
  amount: moneyInput(),
  amount_currency: currencyCode().optional(),
  src_budget: uuidField(),
  dst_budget: uuidField(),
  effective_date: dateTimeInput().optional(),
};
