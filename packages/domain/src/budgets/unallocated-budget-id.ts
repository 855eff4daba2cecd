import type { Tx } from "@allot/db/create-database";
import { budgets } from "@allot/db/schema/budgets";
import { and, eq } from "drizzle-orm";

/**
 * The id of the account's Unallocated budget, the one lookup of it. Read without a lock (it never
 * changes): lock it with the other budgets a change touches, through lockBudgets.
 */
export async function unallocatedBudgetId(tx: Tx, accountId: string): Promise<string> {
  const [row] = await tx
    .select({ id: budgets.id })
    .from(budgets)
    .where(and(eq(budgets.bankAccountId, accountId), eq(budgets.isUnallocated, true)))
    .limit(1);
  if (!row) throw new Error(`account ${accountId} has no Unallocated budget`);
  return row.id;
}
