import type { RouteInput } from "@allot/contract/http/route";
import { addToTotal, formatMoney, type Money, toMoney, ZERO } from "@allot/contract/money";
import type { transactionRoutes } from "@allot/contract/transactions/routes";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { eq } from "drizzle-orm";
import { storedKeys, type TransactionFiles } from "../attachments/transaction-files";
import { moneyText } from "../events/summary-text";
import { changeAccountBalances, changeBudgetBalance, lockBudgets } from "../ledger/balances";
import type { UseCaseContext } from "../shared/use-case-context";
import { writeOwnedTransaction } from "./find-owned-transaction";
import { ledgerKeyOf, refreshSnapshotsFrom } from "./transaction-ledger";

/**
 * Removes a transaction with its allocations and reverses what it did: the account balances it
 * moved and each allocated budget's balance. Later rows' running balances are recomputed. Its
 * receipt files are queued for removal by the delete itself (a trigger) and released to `files`,
 * whose `settle()` removes them once the commit is in.
 */
export async function deleteTransaction(
  ctx: UseCaseContext & { files: TransactionFiles },
  { id }: RouteInput<typeof transactionRoutes.delete>,
) {
  const { files } = ctx;
  await writeOwnedTransaction(ctx, id, async (tx, { account, transaction }) => {
    const allocations = await tx
      .select()
      .from(transactionAllocations)
      .where(eq(transactionAllocations.transactionId, transaction.id));
    const perBudget = new Map<string, Money>();
    for (const allocation of allocations)
      if (allocation.budgetId) addToTotal(perBudget, allocation.budgetId, allocation.amount);
    await lockBudgets(tx, account.id, [...perBudget.keys()]);

    await tx.delete(transactions).where(eq(transactions.id, transaction.id));
    const amount = toMoney(transaction.amount);
    await changeAccountBalances(tx, account.id, {
      posted: transaction.pending ? ZERO : amount.neg(),
      available: amount.neg(),
      transactions: -1,
    });
    for (const [budgetId, total] of perBudget) await changeBudgetBalance(tx, budgetId, total.neg());
    await refreshSnapshotsFrom(tx, account.id, ledgerKeyOf(transaction), {
      transactions: true,
      budgetIds: [...perBudget.keys()],
    });
    files.release(storedKeys(transaction));
    return {
      event: {
        accountId: account.id,
        type: "transaction.deleted",
        says:
          `deleted the ${transaction.pending ? "pending " : ""}transaction ${transaction.description} ` +
          `of ${moneyText(amount, account.currency)}`,
        data: {
          transaction: transaction.id,
          amount: formatMoney(amount),
          transaction_date: transaction.transactionDate.toISOString(),
          pending: transaction.pending,
          description: transaction.description,
          // What each budget held of it, now given back.
          allocations: [...perBudget].map(([budget, total]) => ({ budget, amount: formatMoney(total) })),
        },
      },
      result: undefined,
    };
  });
}
