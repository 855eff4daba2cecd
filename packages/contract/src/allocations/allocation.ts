import { z } from "zod";
import { dateTimeOutput, describeFields, moneyOutput } from "../http/fields";

export const TransactionAllocationSchema = z
  .object(
    describeFields(
      {
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
      },
      {
        id: ["The allocation's id.", "6e8a0c2e-4f1b-4d3a-b5c7-9e1f3a5b7d9f"],
        transaction: ["The id of the transaction it is a part of.", "4a8c2e6f-1b3d-4f5a-9c7e-2d4f6a8b0c1e"],
        budget: ["The id of the budget it is assigned to, or null.", "b7d3e1f2-4a6c-4b8e-9d0f-1a2b3c4d5e6f"],
        amount: ["Its part of the transaction's amount (same sign).", "-58.20"],
        amount_currency: ["The account's currency.", "USD"],
        budget_balance: ["The budget's balance just after this allocation.", "154.20"],
        budget_balance_currency: ["The account's currency.", "USD"],
        category: ["The id of its category, or null.", "0e2f4a6c-8b1d-4e3f-a5c7-9e1b3d5f7a9c"],
        category_full_name: ["The category as `group : name`, or null.", "Food : Groceries"],
        memo: ["A note, or null.", null],
        created_at: ["When the allocation was made.", "2026-05-02T06:00:12Z"],
        modified_at: ["When it last changed.", "2026-05-02T06:00:12Z"],
      },
    ),
  )
  .meta({
    id: "TransactionAllocation",
    description: "A part of a transaction's amount assigned to a budget and a category.",
  });

export type TransactionAllocationView = z.output<typeof TransactionAllocationSchema>;

export const ALLOCATION_ORDERING = ["created_at"] as const;
