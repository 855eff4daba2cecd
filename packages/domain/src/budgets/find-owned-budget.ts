import type { Database, Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { and, eq, inArray } from "drizzle-orm";
import { type BankAccountRow, ownedBy } from "../account-access/find-owned-account";
import { type AccountAct, writeAccount } from "../account-access/write-account";
import { type BudgetRow, lockBudgets } from "../ledger/balances";
import type { Actor } from "../shared/actor";
import { NotFound } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";

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
 * A write to a budget (writeAccount): the budget is found among the actor's, its account locked and
 * numbered, then the budget, its fill-up goal and any extra budgets of the account (the Unallocated
 * one, say; asked for once the account is locked, so the set cannot change before the lock) are
 * locked in id order. The rows the body gets are read under the locks, so balances are current.
 */
export async function writeOwnedBudget<R>(
  ctx: UseCaseContext,
  id: string,
  body: (tx: Tx, rows: LockedBudget) => Promise<AccountAct<R>>,
  extraBudgetIds: (tx: Tx, accountId: string, budget: BudgetRow) => Promise<string[]> = async () => [],
): Promise<R> {
  const { db, actor } = ctx;
  const seen = await findOwnedBudget(db, actor, id);
  const target = { accountId: seen.bankAccountId, owner: actor, missing: budgetNotFound };
  return writeAccount(ctx, target, async (tx, account) => {
    const ids = [
      seen.id,
      ...(seen.fillupGoalId ? [seen.fillupGoalId] : []),
      ...(await extraBudgetIds(tx, account.id, seen)),
    ];
    const locked = await lockBudgets(tx, account.id, ids);
    const budget = locked.get(seen.id);
    if (!budget) throw budgetNotFound();
    // The fill-up id is fixed at creation, so the one read before the lock is the one locked.
    const fillup: BudgetRow | null = budget.fillupGoalId ? (locked.get(budget.fillupGoalId) ?? null) : null;
    return body(tx, { account, budget, fillup, locked });
  });
}

/** What a budget's write works on: its account and the budget rows, locked. */
export interface LockedBudget {
  account: BankAccountRow;
  budget: BudgetRow;
  fillup: BudgetRow | null;
  locked: Map<string, BudgetRow>;
}
