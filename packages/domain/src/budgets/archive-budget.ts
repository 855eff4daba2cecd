import { BUDGET_TYPE } from "@allot/contract/budgets/budget-kinds";
import type { budgetRoutes } from "@allot/contract/budgets/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { formatMoney, sumMoney, toMoney } from "@allot/contract/money";
import type { Tx } from "@allot/db/create-database";
import { budgets } from "@allot/db/schema/budgets";
import { eq, inArray } from "drizzle-orm";
import { moneyText } from "../events/summary-text";
import type { BudgetRow } from "../ledger/balances";
import { recordTransfer } from "../ledger/transfers";
import { Forbidden, ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { loadBudgetView } from "./budget-view";
import { writeOwnedBudget } from "./find-owned-budget";
import { unallocatedBudgetId } from "./unallocated-budget-id";

/** Moves a budget's whole balance (either sign) to Unallocated as a recorded transfer. */
async function emptyIntoUnallocated(
  tx: Tx,
  accountId: string,
  budget: BudgetRow,
  unallocated: BudgetRow,
  actorId: number,
) {
  const balance = toMoney(budget.balance);
  if (balance.eq(0)) return;
  // A transfer's amount is positive: a negative balance is made whole from Unallocated instead.
  await recordTransfer(tx, {
    accountId,
    source: balance.gt(0) ? budget : unallocated,
    destination: balance.gt(0) ? unallocated : budget,
    amount: balance.abs(),
    actorId,
  });
}

/**
 * Archives a budget: its balance, and its fill-up goal's, move to Unallocated through recorded
 * transfers (so the history shows where the money went), and the fill-up goal is archived with it.
 * The Unallocated budget cannot be archived (403); an archived one cannot be archived again (400);
 * a fill-up goal is archived with its Recurring budget, not on its own (400).
 */
export async function archiveBudget(ctx: UseCaseContext, { id }: RouteInput<typeof budgetRoutes.archive>) {
  const { actor, now } = ctx;
  return writeOwnedBudget(
    ctx,
    id,
    async (tx, { account, budget, fillup, locked }) => {
      if (budget.isUnallocated)
        throw new Forbidden("The Unallocated budget cannot be archived.", "unallocated_budget");
      if (budget.archived) throw ValidationFailed.general("The budget is already archived.");
      if (budget.budgetType === BUDGET_TYPE.fillup)
        throw ValidationFailed.general("A fill-up goal is archived with its Recurring budget.");
      const unallocated = [...locked.values()].find((row) => row.isUnallocated);
      if (!unallocated) throw new Error("Unallocated budget not locked");

      for (const row of fillup ? [budget, fillup] : [budget])
        await emptyIntoUnallocated(tx, account.id, row, unallocated, actor.userId);
      const ids = fillup && !fillup.archived ? [budget.id, fillup.id] : [budget.id];
      await tx.update(budgets).set({ archived: true, archivedAt: now }).where(inArray(budgets.id, ids));
      const [archived] = await tx.select().from(budgets).where(eq(budgets.id, budget.id));
      if (!archived) throw new Error("archived budget missing");
      // What Unallocated received (negative: what it paid to make an overdrawn budget whole).
      const swept = sumMoney((fillup ? [budget, fillup] : [budget]).map((row) => row.balance));
      const sweep = swept.eq(0)
        ? ""
        : swept.gt(0)
          ? ` and moved ${moneyText(swept, account.currency)} to ${unallocated.name}`
          : ` and covered its ${moneyText(swept.abs(), account.currency)} overdraft from ${unallocated.name}`;
      return {
        event: {
          accountId: account.id,
          type: "budget.archived",
          says: `archived the budget ${budget.name}${sweep}`,
          data: {
            budget: budget.id,
            fillup_goal: fillup?.id ?? null,
            unallocated_budget: unallocated.id,
            swept_to_unallocated: formatMoney(swept),
          },
        },
        result: await loadBudgetView(tx, archived),
      };
    },
    (tx, accountId) => unallocatedBudgetId(tx, accountId).then((unallocatedId) => [unallocatedId]),
  );
}
