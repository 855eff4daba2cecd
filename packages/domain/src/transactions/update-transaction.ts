import type { TransactionUpdateInput } from "@allot/contract/transactions/transaction";
import type { Database } from "@allot/db/create-database";
import { transactions } from "@allot/db/schema/transactions";
import Big from "big.js";
import { eq } from "drizzle-orm";
import { currencyKeyErrors } from "../bank-accounts/account-currency";
import type { Actor } from "../shared/actor";
import { ValidationFailed } from "../shared/errors";
import { lockOwnedTransaction } from "./find-owned-transaction";
import { loadTransactionView, type TransactionRow } from "./transaction-view";

const UNCHANGEABLE = "This field cannot be changed once the transaction exists.";

/** Fields that may be repeated but not changed: each given one must equal the stored value. */
function unchangeableFieldErrors(row: TransactionRow, input: TransactionUpdateInput) {
  const changed: Record<string, boolean> = {
    bank_account: input.bank_account !== undefined && input.bank_account.toLowerCase() !== row.bankAccountId,
    amount: input.amount !== undefined && !new Big(input.amount).eq(row.amount),
    transaction_date:
      input.transaction_date !== undefined &&
      input.transaction_date.getTime() !== row.transactionDate.getTime(),
    posted_date: input.posted_date !== undefined && input.posted_date.getTime() !== row.postedDate.getTime(),
    raw_description: input.raw_description !== undefined && input.raw_description !== row.rawDescription,
    pending: input.pending !== undefined && input.pending !== row.pending,
    category: input.category !== undefined && (input.category?.toLowerCase() ?? null) !== row.categoryId,
  };
  const errors: Record<string, string[]> = {};
  for (const [field, isChanged] of Object.entries(changed)) if (isChanged) errors[field] = [UNCHANGEABLE];
  return errors;
}

/**
 * PUT and PATCH: transaction_type, memo and description change, nothing that moves money does.
 * A description that differs from the stored one marks it user-edited (imports keep it then).
 */
export async function updateTransaction(
  db: Database,
  actor: Actor,
  id: string,
  input: TransactionUpdateInput,
) {
  return db.transaction(async (tx) => {
    const { account, transaction } = await lockOwnedTransaction(tx, actor, id);
    const errors = {
      ...unchangeableFieldErrors(transaction, input),
      ...currencyKeyErrors(input, ["amount_currency"], account.currency),
    };
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);

    const changes: Partial<typeof transactions.$inferInsert> = {};
    if (input.transaction_type !== undefined) changes.transactionType = input.transaction_type;
    if (input.memo !== undefined) changes.memo = input.memo;
    if (input.description !== undefined && input.description !== transaction.description) {
      changes.description = input.description;
      changes.descriptionUserEdited = true;
    }
    if (Object.keys(changes).length > 0)
      await tx.update(transactions).set(changes).where(eq(transactions.id, transaction.id));
    return loadTransactionView(tx, transaction.id);
  });
}
