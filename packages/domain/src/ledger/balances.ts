import { formatMoney, type Money, toMoney } from "@allot/contract/money";
import type { Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { latchedComplete } from "./goal-complete";

export type BudgetRow = typeof budgets.$inferSelect;

/**
 * Locks budgets of an account `FOR UPDATE`, in id order so concurrent requests never deadlock.
 * Call after the account row is locked (writeAccount): account first, then budgets.
 */
export async function lockBudgets(
  tx: Tx,
  accountId: string,
  budgetIds: string[],
): Promise<Map<string, BudgetRow>> {
  const ids = [...new Set(budgetIds)].sort();
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select()
    .from(budgets)
    .where(and(inArray(budgets.id, ids), eq(budgets.bankAccountId, accountId)))
    .orderBy(asc(budgets.id))
    .for("update");
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Adds to the account's balances, and to its transaction count when transactions are added or
 * removed (the account row must be locked by the caller).
 */
export async function changeAccountBalances(
  tx: Tx,
  accountId: string,
  delta: { posted?: Money; available?: Money; transactions?: number },
) {
  const posted = delta.posted ? formatMoney(delta.posted) : "0";
  const available = delta.available ? formatMoney(delta.available) : "0";
  const count = delta.transactions ?? 0;
  if (posted === "0.00" && available === "0.00" && count === 0) return;
  await tx
    .update(bankAccounts)
    .set({
      postedBalance: sql`${bankAccounts.postedBalance} + ${posted}::numeric`,
      availableBalance: sql`${bankAccounts.availableBalance} + ${available}::numeric`,
      transactionCount: sql`${bankAccounts.transactionCount} + ${count}::int`,
    })
    .where(eq(bankAccounts.id, accountId));
}

/**
 * Adds to a budget's balance, and to its funded amount when given (the budget row must be locked by
 * the caller); a Goal funded up to its target latches complete (goal-complete.ts), and
 * the answer says whether this change latched it.
 */
export async function changeBudgetBalance(tx: Tx, budgetId: string, delta: Money, fundedDelta?: Money) {
  const funded = fundedDelta ? formatMoney(fundedDelta) : "0";
  const [row] = await tx
    .update(budgets)
    .set({
      balance: sql`${budgets.balance} + ${formatMoney(delta)}::numeric`,
      fundedAmount: sql`${budgets.fundedAmount} + ${funded}::numeric`,
    })
    .where(eq(budgets.id, budgetId))
    .returning({
      budgetType: budgets.budgetType,
      isUnallocated: budgets.isUnallocated,
      targetBalance: budgets.targetBalance,
      fundedAmount: budgets.fundedAmount,
      complete: budgets.complete,
    });
  if (!row || row.complete) return false;
  const progress = {
    ...row,
    targetBalance: toMoney(row.targetBalance),
    fundedAmount: toMoney(row.fundedAmount),
  };
  if (!latchedComplete(progress)) return false;
  await tx.update(budgets).set({ complete: true }).where(eq(budgets.id, budgetId));
  return true;
}
