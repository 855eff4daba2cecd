import { BUDGET_TYPE } from "@allot/contract/budgets/budget-kinds";
import type { Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import type Big from "big.js";
import { and, asc, eq, inArray, sql } from "drizzle-orm";

export type BudgetRow = typeof budgets.$inferSelect;

/**
 * Locks budgets of an account `FOR UPDATE`, in id order so concurrent requests never deadlock.
 * Call after the account row is locked (findOwnedAccount with `lock`): account first, then budgets.
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
  delta: { posted?: Big; available?: Big; transactions?: number },
) {
  const posted = delta.posted?.toFixed(2) ?? "0";
  const available = delta.available?.toFixed(2) ?? "0";
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

/** Adds to a budget's balance (the budget row must be locked by the caller). */
export async function changeBudgetBalance(tx: Tx, budgetId: string, delta: Big, fundedDelta?: Big) {
  const funded = fundedDelta?.toFixed(2) ?? "0";
  await tx
    .update(budgets)
    .set({
      balance: sql`${budgets.balance} + ${delta.toFixed(2)}::numeric`,
      fundedAmount: sql`${budgets.fundedAmount} + ${funded}::numeric`,
      // A Goal latches complete once funded up to its target; spending never unlatches it.
      complete: sql`${budgets.complete} or (${budgets.budgetType} = ${BUDGET_TYPE.goal} and not ${budgets.isUnallocated}
        and ${budgets.targetBalance} > 0 and ${budgets.fundedAmount} + ${funded}::numeric >= ${budgets.targetBalance})`,
    })
    .where(eq(budgets.id, budgetId));
}
