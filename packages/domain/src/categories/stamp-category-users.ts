import type { Tx } from "@allot/db/create-database";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { eq, sql } from "drizzle-orm";
import { stampEachAccount, stampedSet } from "../ledger/change-number";

/**
 * A renamed category changes the `category_full_name` of every transaction and allocation filed
 * under it, in any account: each account's rows take that account's next change number. The
 * caller holds the category `FOR UPDATE`, so no row can take the category meanwhile.
 */
export async function stampCategoryUsers(tx: Tx, categoryId: string) {
  const accounts = await tx
    .select({ id: transactions.bankAccountId })
    .from(transactions)
    .where(eq(transactions.categoryId, categoryId))
    .union(
      tx
        .select({ id: transactionAllocations.bankAccountId })
        .from(transactionAllocations)
        .where(eq(transactionAllocations.categoryId, categoryId)),
    );
  await stampEachAccount(
    tx,
    accounts.map((row) => row.id),
    (accountId) =>
      tx.execute(sql`
        with allocations_done as (
          update transaction_allocations set ${stampedSet()}
          where bank_account_id = ${accountId} and category_id = ${categoryId}
          returning transaction_id
        )
        -- A transaction's answer embeds its allocations: it changes with them.
        update transactions set ${stampedSet()}
        where bank_account_id = ${accountId}
          and (category_id = ${categoryId} or id in (select transaction_id from allocations_done))`),
  );
}
