import type { RouteInput } from "@allot/contract/http/route";
import { formatMoney, type Money, toMoney } from "@allot/contract/money";
import type { transactionRoutes } from "@allot/contract/transactions/routes";
import type { Tx } from "@allot/db/create-database";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { and, asc, eq } from "drizzle-orm";
import { assertAccountCurrency } from "../account-access/account-currency";
import { unallocatedBudgetId } from "../budgets/unallocated-budget-id";
import { accountTimeZone } from "../calendar/account-time-zone";
import { instantOfText } from "../calendar/instant-of-text";
import { moneyText } from "../events/summary-text";
import { changeAccountBalances, changeBudgetBalance, lockBudgets } from "../ledger/balances";
import { ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { writeOwnedTransaction } from "./find-owned-transaction";
import { ledgerKeyOf, refreshSnapshotsFrom } from "./transaction-ledger";
import { loadTransactionView } from "./transaction-view";

/**
 * Posts a pending transaction: the posted balance is credited with the final amount. When the
 * amount changed, the available balance and the Unallocated allocation move by the difference.
 * The transaction row is locked (after the account) and read again, so two resolves at once
 * credit once: the second finds the row posted and is refused.
 */
export async function resolvePending(
  ctx: UseCaseContext<"publicBaseUrl">,
  { id, ...input }: RouteInput<typeof transactionRoutes.resolvePending>,
) {
  return writeOwnedTransaction(ctx, id, async (tx, { account, transaction }) => {
    assertAccountCurrency({ ...input }, ["amount_currency"], account.currency);
    if (!transaction.pending) {
      throw ValidationFailed.general("The transaction is not pending; it is already posted.");
    }
    const original = toMoney(transaction.amount);
    const amount = input.amount === undefined || input.amount === null ? original : toMoney(input.amount);
    if (amount.cmp(0) !== original.cmp(0)) {
      throw ValidationFailed.on("amount", "The final amount must have the same sign as the pending amount.");
    }
    const difference = amount.minus(original);
    const postedDate = instantOfText(input.posted_date, await accountTimeZone(tx, account.id));

    await tx
      .update(transactions)
      .set({
        pending: false,
        postedDate,
        amount: formatMoney(amount),
      })
      .where(eq(transactions.id, transaction.id));
    await changeAccountBalances(tx, account.id, { posted: amount, available: difference });

    const touched: string[] = [];
    if (!difference.eq(0)) {
      const unallocatedId = await unallocatedBudgetId(tx, account.id);
      await lockBudgets(tx, account.id, [unallocatedId]);
      await adjustUnallocatedAllocation(tx, transaction, unallocatedId, difference);
      await changeBudgetBalance(tx, unallocatedId, difference);
      touched.push(unallocatedId);
    }
    await refreshSnapshotsFrom(tx, account.id, ledgerKeyOf(transaction), {
      transactions: true,
      budgetIds: touched,
    });
    return {
      event: {
        accountId: account.id,
        type: "transaction.posted",
        says:
          `posted the transaction ${transaction.description} of ${moneyText(amount, account.currency)}` +
          (difference.eq(0) ? "" : ` (pending at ${moneyText(original, account.currency)})`),
        data: {
          transaction: transaction.id,
          amount: formatMoney(amount),
          pending_amount: formatMoney(original),
          posted_date: postedDate.toISOString(),
        },
      },
      result: await loadTransactionView(tx, transaction.id, ctx.services),
    };
  });
}

/** The Unallocated allocation takes the difference (made if missing, dropped if it reaches zero beside others). */
async function adjustUnallocatedAllocation(
  tx: Tx,
  transaction: { id: string; bankAccountId: string; categoryId: string | null },
  unallocatedId: string,
  difference: Money,
) {
  const al = transactionAllocations;
  const all = await tx
    .select()
    .from(al)
    .where(eq(al.transactionId, transaction.id))
    .orderBy(asc(al.createdAt));
  const [existing] = await tx
    .select()
    .from(al)
    .where(and(eq(al.transactionId, transaction.id), eq(al.budgetId, unallocatedId)))
    .orderBy(asc(al.createdAt), asc(al.id))
    .limit(1);
  if (!existing) {
    await tx.insert(al).values({
      transactionId: transaction.id,
      bankAccountId: transaction.bankAccountId,
      budgetId: unallocatedId,
      amount: formatMoney(difference),
      categoryId: transaction.categoryId,
    });
    return;
  }
  const next = difference.plus(existing.amount);
  if (next.eq(0) && all.length > 1) await tx.delete(al).where(eq(al.id, existing.id));
  else
    await tx
      .update(al)
      .set({ amount: formatMoney(next) })
      .where(eq(al.id, existing.id));
}
