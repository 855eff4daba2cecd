import { BUDGET_TYPE } from "@allot/contract/budgets/budget-kinds";
import type { Tx } from "@allot/db/create-database";
import { budgets } from "@allot/db/schema/budgets";
import { and, eq, inArray, sql } from "drizzle-orm";

// Budgets that spending is routed to. A fill-up goal (A) only feeds its Recurring budget.
const ROUTED_TYPES = [BUDGET_TYPE.goal, BUDGET_TYPE.capped, BUDGET_TYPE.recurring];

/**
 * The one budget of the account whose auto_spend lists this category full name, or null when none
 * or several do (an ambiguous rule routes nothing). Only Goal, Capped and Recurring budgets count,
 * neither archived ones nor the Unallocated one; paused ones do (pausing stops funding, not
 * spending). auto_spend is stored canonical; the comparison ignores case all the same.
 */
export async function findAutoSpendBudget(tx: Tx, accountId: string, categoryFullName: string) {
  const rows = await tx
    .select({ id: budgets.id })
    .from(budgets)
    .where(
      and(
        eq(budgets.bankAccountId, accountId),
        inArray(budgets.budgetType, ROUTED_TYPES),
        eq(budgets.archived, false),
        eq(budgets.isUnallocated, false),
        sql`exists (select 1 from unnest(${budgets.autoSpend}) as entry where lower(entry) = lower(${categoryFullName}))`,
      ),
    )
    .limit(2);
  return rows.length === 1 ? (rows[0]?.id ?? null) : null;
}
