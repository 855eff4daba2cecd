import type { Database, Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { and, eq, inArray } from "drizzle-orm";
import { findOwnedAccount, ownedBy } from "../bank-accounts/find-owned-account";
import { type BudgetRow, lockBudgets } from "../ledger/balances";
import type { Actor } from "../shared/actor";
import { NotFound } from "../shared/errors";

export const budgetNotFound = () => new NotFound("No budget matches the given id.");

/** Condition on `budgets`: the budget belongs to one of the user's accounts. */
export const budgetOwnedBy = (db: Database | Tx, userId: number) =>
  inArray(
    budgets.bankAccountId,
    db.select({ id: bankAccounts.id }).from(bankAccounts).where(ownedBy(db, userId)),
  );

/** The budget if one of the actor's accounts holds it; another user's reads as missing (404). */
export async function findOwnedBudget(db: Database | Tx, actor: Pick<Actor, "userId">, id: string) {
  const [row] = await db
    .select()
    .from(budgets)
    .where(and(eq(budgets.id, id), budgetOwnedBy(db, actor.userId)))
    .limit(1);
  if (!row) throw budgetNotFound();
  return row;
}

/**
 * For a change: the budget's account locked first, then the budget, its fill-up goal and any extra
 * budgets of the account (the Unallocated one, say; asked for once the account is locked, so the
 * set cannot change before the lock) locked in id order. The rows returned are
 * read under the locks, so balances are current.
 */
export async function lockOwnedBudget(
  tx: Tx,
  actor: Pick<Actor, "userId">,
  id: string,
  extraBudgetIds: (accountId: string, budget: BudgetRow) => Promise<string[]> = async () => [],
) {
  const seen = await findOwnedBudget(tx, actor, id);
  const account = await findOwnedAccount(tx, actor, seen.bankAccountId, { lock: true }).catch((error) => {
    if (error instanceof NotFound) throw budgetNotFound();
    throw error;
  });
  const ids = [
    seen.id,
    ...(seen.fillupGoalId ? [seen.fillupGoalId] : []),
    ...(await extraBudgetIds(account.id, seen)),
  ];
  const locked = await lockBudgets(tx, account.id, ids);
  const budget = locked.get(seen.id);
  if (!budget) throw budgetNotFound();
  // The fill-up id is fixed at creation, so the one read before the lock is the one locked.
  const fillup: BudgetRow | null = budget.fillupGoalId ? (locked.get(budget.fillupGoalId) ?? null) : null;
  return { account, budget, fillup, locked };
}
