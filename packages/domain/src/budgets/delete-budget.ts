import type { Database, Tx } from "@allot/db/create-database";
import { budgets } from "@allot/db/schema/budgets";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import Big from "big.js";
import { inArray, or } from "drizzle-orm";
import { type BudgetRow, changeBudgetBalance } from "../ledger/balances";
import { earliestKey, type LedgerKey } from "../ledger/ledger-key";
import { refreshBudgetSnapshots } from "../ledger/snapshots";
import { tracksFunding } from "../ledger/transfers";
import type { Actor } from "../shared/actor";
import { Forbidden, ValidationFailed } from "../shared/errors";
import { lockOwnedBudget } from "./find-owned-budget";
import { unallocatedBudgetId } from "./unallocated-budget-id";

/** Transfers with at least one side among the budgets. */
const transfersTouching = (tx: Tx, ids: string[]) =>
  tx
    .select()
    .from(internalTransactions)
    .where(
      or(inArray(internalTransactions.srcBudgetId, ids), inArray(internalTransactions.dstBudgetId, ids)),
    );

/**
 * Deletes a budget with its fill-up goal (together "the deleted budgets"). Refused for the
 * Unallocated budget (403), for a fill-up goal on its own (400: delete its Recurring budget), and
 * while either deleted budget has transaction allocations (400: archive it instead).
 *
 * Otherwise, in one transaction with the account and every budget involved locked:
 * - every transfer between a deleted budget and another budget is undone on that other budget
 *   (a budget that received from a deleted one gives it back, one that paid into a deleted one is
 *   repaid, funded_amount of goals alike) and the transfer row is deleted, as are transfers between
 *   the deleted budgets themselves;
 * - what the deleted budgets still hold beyond those transfers (their balance minus the net they
 *   received from others; zero for budgets that only ever moved money by transfers) is added to
 *   Unallocated. It has no event of its own to record, so it reads as Unallocated's from the
 *   start: Unallocated's running balances are recomputed from the beginning;
 * - the other budgets' running balances are recomputed from the earliest deleted transfer.
 * available_balance does not change and still equals the sum of the remaining budgets.
 */
export async function deleteBudget(db: Database, actor: Actor, id: string) {
  await db.transaction(async (tx) => {
    const { account, budget, fillup, locked } = await lockOwnedBudget(
      tx,
      actor,
      id,
      async (accountId, seen) => {
        const deleted = [seen.id, ...(seen.fillupGoalId ? [seen.fillupGoalId] : [])];
        const counterparts = (await transfersTouching(tx, deleted)).flatMap((it) => [
          it.srcBudgetId,
          it.dstBudgetId,
        ]);
        return [await unallocatedBudgetId(tx, accountId), ...counterparts];
      },
    );
    if (budget.isUnallocated)
      throw new Forbidden("The Unallocated budget cannot be deleted.", "unallocated_budget");
    if (budget.budgetType === "A")
      throw ValidationFailed.on("non_field_errors", "A fill-up goal is deleted with its Recurring budget.");
    const deletedRows = fillup ? [budget, fillup] : [budget];
    const deletedIds = deletedRows.map((row) => row.id);
    const [allocation] = await tx
      .select({ id: transactionAllocations.id })
      .from(transactionAllocations)
      .where(inArray(transactionAllocations.budgetId, deletedIds))
      .limit(1);
    if (allocation)
      throw ValidationFailed.on(
        "non_field_errors",
        "The budget or its fill-up goal has transaction allocations and cannot be deleted; archive it instead.",
      );
    const unallocated = [...locked.values()].find((row) => row.isUnallocated);
    if (!unallocated) throw new Error("Unallocated budget not locked");

    // What each other budget gets back, and the earliest point its history changes.
    const deltas = new Map<string, Big>();
    let from: LedgerKey | null | undefined;
    const isDeleted = (budgetId: string) => deletedIds.includes(budgetId);
    const transfers = await transfersTouching(tx, deletedIds);
    for (const it of transfers) {
      const key = { at: it.effectiveDate, createdAt: it.createdAt };
      from = from === undefined ? key : earliestKey(from, key);
      if (isDeleted(it.srcBudgetId) && isDeleted(it.dstBudgetId)) continue;
      const [other, delta] = isDeleted(it.srcBudgetId)
        ? [it.dstBudgetId, new Big(it.amount).neg()]
        : [it.srcBudgetId, new Big(it.amount)];
      deltas.set(other, (deltas.get(other) ?? new Big(0)).plus(delta));
    }
    const held = deletedRows.reduce((sum, row) => sum.plus(row.balance), new Big(0));
    const returned = [...deltas.values()].reduce((sum, delta) => sum.plus(delta), new Big(0));
    const remaining = held.minus(returned);

    if (transfers.length > 0)
      await tx.delete(internalTransactions).where(
        inArray(
          internalTransactions.id,
          transfers.map((it) => it.id),
        ),
      );
    await tx.delete(budgets).where(inArray(budgets.id, deletedIds));
    for (const [otherId, delta] of deltas) {
      const other = locked.get(otherId);
      if (!other) throw new Error(`transfer counterpart ${otherId} not locked`);
      await changeBudgetBalance(tx, otherId, delta, tracksFunding(other) ? delta : undefined);
    }
    if (!remaining.eq(0)) await changeBudgetBalance(tx, unallocated.id, remaining);

    const others = [...deltas.keys()];
    if (!remaining.eq(0)) await refreshBudgetSnapshots(tx, account.id, [unallocated.id, ...others], null);
    else if (others.length > 0) await refreshBudgetSnapshots(tx, account.id, others, from ?? null);
  });
}
