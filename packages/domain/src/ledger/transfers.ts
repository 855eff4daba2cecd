import { BUDGET_TYPE } from "@allot/contract/budgets/budget-kinds";
import { formatMoney, type Money } from "@allot/contract/money";
import type { Tx } from "@allot/db/create-database";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { type BudgetRow, changeBudgetBalance } from "./balances";
import { refreshBudgetSnapshots } from "./snapshots";

// Budgets whose funded_amount follows transfers: goals and fill-up goals (not Unallocated).
export const tracksFunding = (budget: Pick<BudgetRow, "budgetType" | "isUnallocated">) =>
  (budget.budgetType === BUDGET_TYPE.goal || budget.budgetType === BUDGET_TYPE.fillup) &&
  !budget.isUnallocated;

/**
 * Moves money between two budgets of one account and records it as an internal transaction.
 * The caller has locked the account, then both budgets (lockBudgets), and passes those rows.
 * A goal's funded_amount rises as destination and falls as source; the source may go negative.
 * Answers the transfer's row and the Goal it latched complete, if any.
 */
export async function recordTransfer(
  tx: Tx,
  transfer: {
    accountId: string;
    source: BudgetRow;
    destination: BudgetRow;
    amount: Money;
    actorId: number | null;
    effectiveDate?: Date;
  },
) {
  const { accountId, source, destination, amount } = transfer;
  const [row] = await tx
    .insert(internalTransactions)
    .values({
      bankAccountId: accountId,
      amount: formatMoney(amount),
      srcBudgetId: source.id,
      dstBudgetId: destination.id,
      actorId: transfer.actorId,
      effectiveDate: transfer.effectiveDate ?? new Date(),
    })
    .returning();
  if (!row) throw new Error("internal transaction insert returned nothing");
  await changeBudgetBalance(tx, source.id, amount.neg(), tracksFunding(source) ? amount.neg() : undefined);
  const completed = await changeBudgetBalance(
    tx,
    destination.id,
    amount,
    tracksFunding(destination) ? amount : undefined,
  );
  await refreshBudgetSnapshots(tx, accountId, [source.id, destination.id], {
    at: row.effectiveDate,
    createdAt: row.createdAt,
  });
  return { ...row, completedBudgets: completed ? [destination.id] : [] };
}
