import { BUDGET_TYPE } from "@allot/contract/budgets/budget-kinds";
import type { budgetRoutes } from "@allot/contract/budgets/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { addToTotal, formatMoney, type Money, sumMoney, toMoney } from "@allot/contract/money";
import type { Tx } from "@allot/db/create-database";
import { budgets } from "@allot/db/schema/budgets";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { eq, inArray, or } from "drizzle-orm";
import type { AccountAct } from "../account-access/write-account";
import { moneyText } from "../events/summary-text";
import { type BudgetRow, changeBudgetBalance } from "../ledger/balances";
import { FROM_THE_START, type LedgerKey, minKey } from "../ledger/ledger-key";
import { refreshBudgetSnapshots } from "../ledger/snapshots";
import { tracksFunding } from "../ledger/transfers";
import { Forbidden, ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { type LockedBudget, writeOwnedBudget } from "./find-owned-budget";
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
 * - every transfer between a deleted budget and another active budget is undone on that other
 *   budget (a budget that received from a deleted one gives it back, one that paid into a deleted
 *   one is repaid, funded_amount of goals alike) and the transfer row is deleted, as are transfers
 *   between the deleted budgets themselves;
 * - a transfer with an archived budget is kept, with Unallocated in the deleted budget's place: an
 *   archived budget stays at zero (its archive transfer already settled it with Unallocated), so
 *   Unallocated takes over the deleted budget's side instead;
 * - what the deleted budgets still hold beyond the undone transfers (their balance minus the net
 *   they received from active budgets) is added to Unallocated. The re-pointed transfers explain
 *   part of it; a rest has no event of its own, so it reads as Unallocated's from the start and
 *   Unallocated's running balances are recomputed from the beginning (else from the earliest
 *   re-pointed transfer);
 * - the other budgets' running balances are recomputed from the earliest deleted transfer.
 * available_balance does not change and still equals the sum of the remaining budgets.
 */
export async function deleteBudget(ctx: UseCaseContext, { id }: RouteInput<typeof budgetRoutes.delete>) {
  await writeOwnedBudget(ctx, id, deleteLockedBudget, budgetsInvolved);
}

/** The budgets a delete locks beside the budget and its fill-up: Unallocated and every transfer's other side. */
async function budgetsInvolved(tx: Tx, accountId: string, seen: BudgetRow) {
  const deleted = [seen.id, ...(seen.fillupGoalId ? [seen.fillupGoalId] : [])];
  const counterparts = (await transfersTouching(tx, deleted)).flatMap((it) => [
    it.srcBudgetId,
    it.dstBudgetId,
  ]);
  return [await unallocatedBudgetId(tx, accountId), ...counterparts];
}

async function deleteLockedBudget(
  tx: Tx,
  { account, budget, fillup, locked }: LockedBudget,
): Promise<AccountAct<void>> {
  if (budget.isUnallocated)
    throw new Forbidden("The Unallocated budget cannot be deleted.", "unallocated_budget");
  if (budget.budgetType === BUDGET_TYPE.fillup)
    throw ValidationFailed.general("A fill-up goal is deleted with its Recurring budget.");
  const deletedRows = fillup ? [budget, fillup] : [budget];
  const deletedIds = deletedRows.map((row) => row.id);
  const [allocation] = await tx
    .select({ id: transactionAllocations.id })
    .from(transactionAllocations)
    .where(inArray(transactionAllocations.budgetId, deletedIds))
    .limit(1);
  if (allocation)
    throw ValidationFailed.general(
      "The budget or its fill-up goal has transaction allocations and cannot be deleted; archive it instead.",
    );
  const unallocated = [...locked.values()].find((row) => row.isUnallocated);
  if (!unallocated) throw new Error("Unallocated budget not locked");

  // What each other budget gets back, and the earliest point its history changes.
  const deltas = new Map<string, Money>();
  let from: LedgerKey | undefined;
  let repointedFrom: LedgerKey | undefined;
  const isDeleted = (budgetId: string) => deletedIds.includes(budgetId);
  const counterpart = (budgetId: string) => {
    const row = locked.get(budgetId);
    if (!row) throw new Error(`transfer counterpart ${budgetId} not locked`);
    return row;
  };
  const undone: string[] = [];
  const repointed: (typeof internalTransactions.$inferSelect)[] = [];
  for (const it of await transfersTouching(tx, deletedIds)) {
    const key = { at: it.effectiveDate, createdAt: it.createdAt };
    const other = isDeleted(it.srcBudgetId) ? it.dstBudgetId : it.srcBudgetId;
    if (!isDeleted(other) && counterpart(other).archived) {
      repointed.push(it);
      repointedFrom = minKey(repointedFrom, key);
      continue;
    }
    undone.push(it.id);
    from = minKey(from, key);
    if (isDeleted(other)) continue;
    const amount = toMoney(it.amount);
    addToTotal(deltas, other, isDeleted(it.srcBudgetId) ? amount.neg() : amount);
  }
  const held = sumMoney(deletedRows.map((row) => row.balance));
  const returned = sumMoney(deltas.values());
  const remaining = held.minus(returned);
  // The part of it no re-pointed transfer explains has no event: it reads as Unallocated's from the start.
  const unexplained = repointed.reduce(
    (rest, it) => (isDeleted(it.srcBudgetId) ? rest.plus(it.amount) : rest.minus(it.amount)),
    remaining,
  );

  if (undone.length > 0)
    await tx.delete(internalTransactions).where(inArray(internalTransactions.id, undone));
  for (const it of repointed)
    await tx
      .update(internalTransactions)
      .set(isDeleted(it.srcBudgetId) ? { srcBudgetId: unallocated.id } : { dstBudgetId: unallocated.id })
      .where(eq(internalTransactions.id, it.id));
  await tx.delete(budgets).where(inArray(budgets.id, deletedIds));
  for (const [otherId, delta] of deltas)
    await changeBudgetBalance(tx, otherId, delta, tracksFunding(counterpart(otherId)) ? delta : undefined);
  if (!remaining.eq(0)) await changeBudgetBalance(tx, unallocated.id, remaining);

  const others = [...deltas.keys()];
  if (from && others.length > 0) await refreshBudgetSnapshots(tx, account.id, others, from);
  if (!unexplained.eq(0) || repointed.length > 0)
    await refreshBudgetSnapshots(
      tx,
      account.id,
      [unallocated.id],
      unexplained.eq(0) ? (repointedFrom ?? FROM_THE_START) : FROM_THE_START,
    );

  return {
    event: {
      accountId: account.id,
      type: "budget.deleted",
      says: `deleted the budget ${budget.name}${
        remaining.eq(0)
          ? ""
          : remaining.gt(0)
            ? ` and moved ${moneyText(remaining, account.currency)} to ${unallocated.name}`
            : ` and took ${moneyText(remaining.abs(), account.currency)} from ${unallocated.name}`
      }`,
      data: {
        budget: budget.id,
        name: budget.name,
        fillup_goal: fillup?.id ?? null,
        unallocated_budget: unallocated.id,
        moved_to_unallocated: formatMoney(remaining),
        transfers_undone: undone.length,
      },
    },
    result: undefined,
  };
}
