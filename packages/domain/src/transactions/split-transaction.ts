import { isUuid } from "@allot/contract/http/fields";
import type { RouteInput } from "@allot/contract/http/route";
import { formatMoney, type Money, toMoney } from "@allot/contract/money";
import type { transactionRoutes } from "@allot/contract/transactions/routes";
import { budgets } from "@allot/db/schema/budgets";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { asc, count, eq, inArray } from "drizzle-orm";
import { selectAllocationViews, toAllocationView } from "../allocations/allocation-view";
import { unallocatedBudgetId } from "../budgets/unallocated-budget-id";
import { countOf, moneyText } from "../events/summary-text";
import { changeBudgetBalance, lockBudgets } from "../ledger/balances";
import { stampTransactions } from "../ledger/change-number";
import { ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { writeOwnedTransaction } from "./find-owned-transaction";
import { POSITIVE, planSplit, splitProblem } from "./split-plan";
import { ledgerKeyOf, refreshSnapshotsFrom } from "./transaction-ledger";

const invalid = (message: string) => ValidationFailed.on("splits", message);

/**
 * Divides a posted transaction among budgets of its account. Only budget balances move (the
 * account's do not); every allocation, oldest first, comes back with its budget's running balance.
 * Archived budgets are refused: money should not flow into a budget that is put away.
 */
export async function splitTransaction(
  ctx: UseCaseContext,
  { id, ...input }: RouteInput<typeof transactionRoutes.split>,
) {
  return writeOwnedTransaction(ctx, id, async (tx, { account, transaction }) => {
    if (transaction.pending) {
      throw ValidationFailed.general("A pending transaction cannot be split; resolve it first.");
    }
    // A split names distinct budgets of the account, so more keys than it has budgets cannot
    // be right; refusing them here keeps a huge map from reaching a query.
    const named = Object.keys(input.splits).length;
    if (named > 0) {
      const [row] = await tx
        .select({ n: count() })
        .from(budgets)
        .where(eq(budgets.bankAccountId, account.id));
      const budgetCount = row?.n ?? 0;
      if (named > budgetCount)
        throw invalid(`The account has ${budgetCount} budgets; a split cannot name ${named}.`);
    }
    // Each value is checked on its own before keys are folded to lower case, so a negative cannot
    // hide inside a sum; a budget named twice (keys differing only in case) is refused as ambiguous.
    const requested = new Map<string, Money>();
    for (const [budgetId, value] of Object.entries(input.splits)) {
      if (!isUuid(budgetId)) throw invalid(`"${budgetId}" is not a valid UUID.`);
      const amount = toMoney(value);
      if (amount.lte(0)) throw invalid(POSITIVE);
      const key = budgetId.toLowerCase();
      if (requested.has(key)) throw invalid(`Budget "${key}" is given more than once.`);
      requested.set(key, amount);
    }
    const amount = toMoney(transaction.amount);
    const problem = splitProblem(amount, requested);
    if (problem) throw invalid(problem);

    const existing = await tx
      .select()
      .from(transactionAllocations)
      .where(eq(transactionAllocations.transactionId, transaction.id))
      .orderBy(asc(transactionAllocations.createdAt), asc(transactionAllocations.id));
    const unallocatedId = await unallocatedBudgetId(tx, account.id);
    const touched = [
      ...new Set([
        unallocatedId,
        ...requested.keys(),
        ...existing.flatMap((row) => (row.budgetId ? [row.budgetId] : [])),
      ]),
    ];
    const locked = await lockBudgets(tx, account.id, touched);
    for (const budgetId of requested.keys()) {
      const budget = locked.get(budgetId);
      if (!budget) throw invalid(`Invalid budget "${budgetId}" - object does not exist.`);
      if (budget.archived) throw invalid(`Budget "${budget.name}" is archived and cannot take allocations.`);
    }

    const plan = planSplit(amount, unallocatedId, requested, existing);
    const al = transactionAllocations;
    if (plan.deletes.length > 0) await tx.delete(al).where(inArray(al.id, plan.deletes));
    for (const update of plan.updates)
      await tx
        .update(al)
        .set({ amount: formatMoney(update.amount) })
        .where(eq(al.id, update.id));
    if (plan.inserts.length > 0) {
      await tx.insert(al).values(
        plan.inserts.map((insert) => ({
          transactionId: transaction.id,
          bankAccountId: account.id,
          budgetId: insert.budgetId,
          amount: formatMoney(insert.amount),
          categoryId: transaction.categoryId,
        })),
      );
    }
    await stampTransactions(tx, [transaction.id]);
    for (const [budgetId, delta] of plan.deltas) await changeBudgetBalance(tx, budgetId, delta);
    await refreshSnapshotsFrom(tx, account.id, ledgerKeyOf(transaction), {
      transactions: false,
      budgetIds: touched,
    });

    const rows = await selectAllocationViews(tx)
      .where(eq(al.transactionId, transaction.id))
      .orderBy(asc(al.createdAt), asc(al.id));
    const n = new Set(rows.map((row) => row.budgetId)).size;
    return {
      event: {
        accountId: account.id,
        type: "transaction.split",
        says:
          `split the transaction ${transaction.description} of ${moneyText(amount, account.currency)} ` +
          `among ${countOf(n, "budget")}`,
        data: {
          transaction: transaction.id,
          amount: formatMoney(amount),
          // The allocations as they now stand, the Unallocated remainder included.
          allocations: rows.map((row) => ({ budget: row.budgetId, amount: formatMoney(row.amount) })),
        },
      },
      result: rows.map(toAllocationView),
    };
  });
}
