import { z } from "zod";
import { TransactionAllocationSchema } from "../allocations/allocation";
import { BankAccountSchema } from "../bank-accounts/bank-account";
import { BudgetSchema } from "../budgets/budget";
import { FundingEventOccurrenceSchema } from "../funding-occurrences/funding-occurrence";
import { InternalTransactionSchema } from "../internal-transactions/internal-transaction";
import { TransactionSchema } from "../transactions/transaction";

/** docs/spec/extensions.md §2: the kinds of object the change feed carries, each with its GET's shape. */
export const CHANGE_OBJECT_SCHEMAS = {
  bank_account: BankAccountSchema,
  budget: BudgetSchema,
  transaction: TransactionSchema,
  allocation: TransactionAllocationSchema,
  internal_transaction: InternalTransactionSchema,
  funding_occurrence: FundingEventOccurrenceSchema,
};

export type ChangeType = keyof typeof CHANGE_OBJECT_SCHEMAS;

// The object's schema passed on its own (not looked up by `type`), so TypeScript narrows `object`
// when a client tests `type`.
const changeOf = <T extends ChangeType, S extends z.ZodType>(type: T, object: S) =>
  z.object({
    type: z.literal(type).meta({ description: "The kind of object that changed." }),
    id: z.uuid().meta({ description: "The object's id." }),
    deleted: z.boolean().meta({ description: "The object was deleted since the cursor." }),
    object: object.nullable().meta({ description: "What the object's GET answers now; null when deleted." }),
  });

export const ChangeSchema = z
  .discriminatedUnion("type", [
    changeOf("bank_account", BankAccountSchema),
    changeOf("budget", BudgetSchema),
    changeOf("transaction", TransactionSchema),
    changeOf("allocation", TransactionAllocationSchema),
    changeOf("internal_transaction", InternalTransactionSchema),
    changeOf("funding_occurrence", FundingEventOccurrenceSchema),
  ])
  .meta({ id: "Change", description: "One object created, changed or deleted since the cursor, by `type`." });

export const ChangesPageSchema = z
  .object({
    cursor: z.string().meta({
      description: "Opaque: pass it as `since` for what changed after this page.",
      example: "MjAyNi0wNS0wMlQwOTowMDowMFp8MTIzNA",
    }),
    has_more: z.boolean().meta({ description: "More changes wait: call again with `cursor` now." }),
    changes: z
      .array(ChangeSchema)
      .meta({ description: "The changes, oldest first; each object once, as it is now." }),
  })
  .meta({ id: "ChangesPage", description: "A page of the change feed." });

export type Change = z.infer<typeof ChangeSchema>;
export type ChangesPage = z.infer<typeof ChangesPageSchema>;
