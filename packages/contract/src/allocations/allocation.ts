import { z } from "zod";
import { dateTimeOutput, moneyOutput } from "../http/fields";

export const TransactionAllocationSchema = z
  .object({
    id: z.uuid(),
    transaction: z.uuid(),
    budget: z.uuid().nullable(),
    amount: moneyOutput(),
    amount_currency: z.string(),
    budget_balance: moneyOutput(),
    budget_balance_currency: z.string(),
    category: z.uuid().nullable(),
    category_full_name: z.string().nullable(),
    memo: z.string().nullable(),
    created_at: dateTimeOutput(),
    modified_at: dateTimeOutput(),
  })
  .meta({ id: "TransactionAllocation" });

export type TransactionAllocationView = z.output<typeof TransactionAllocationSchema>;

export const ALLOCATION_ORDERING = ["created_at"] as const;
