import type { budgetRoutes } from "@allot/contract/budgets/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { formatMoney } from "@allot/contract/money";
import { budgets } from "@allot/db/schema/budgets";
import { accountNamedIn, writeAccount } from "../account-access/write-account";
import { accountToday } from "../calendar/account-time-zone";
import type { AccountChange } from "../events/record-event";
import { ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import type { FieldErrors } from "../shared/validation";
import { prepareBudgetChanges } from "./budget-changes";
import { loadBudgetView } from "./budget-view";
import { newBudgetErrors, newBudgetRows } from "./new-budget";

/**
 * A new budget with a zero balance in one of the caller's accounts (another user's account reads as
 * one that does not exist: 400 on bank_account). A Recurring budget gets its fill-up goal (type A,
 * "<name> Fill-up", same target and funding schedule) in the same transaction. Fill-up goals are
 * only made this way: asking for type A is 400.
 */
export async function createBudget(ctx: UseCaseContext, input: RouteInput<typeof budgetRoutes.create>) {
  const { actor, now } = ctx;
  const target = accountNamedIn("bank_account", input.bank_account, actor);
  return writeAccount(ctx, target, async (tx, account) => {
    const errors: FieldErrors = {};
    const prepared = await prepareBudgetChanges(tx, actor.userId, account, input, errors);
    newBudgetErrors(input, prepared, errors);
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);

    const rows = newBudgetRows(account.id, input, prepared, await accountToday(tx, account.id, now));
    const [fillup] = rows.fillup ? await tx.insert(budgets).values(rows.fillup).returning() : [];
    if (rows.fillup && !fillup) throw new Error("fill-up goal insert returned nothing");
    const [row] = await tx
      .insert(budgets)
      .values({ ...rows.budget, fillupGoalId: fillup?.id ?? null })
      .returning();
    if (!row) throw new Error("budget insert returned nothing");
    const event: AccountChange = {
      accountId: account.id,
      type: "budget.created",
      says: `created the budget ${row.name}`,
      data: {
        budget: row.id,
        name: row.name,
        budget_type: row.budgetType,
        funding_type: row.fundingType,
        target_balance: formatMoney(row.targetBalance),
        funding_amount: row.fundingAmount === null ? null : formatMoney(row.fundingAmount),
        target_date: row.targetDate,
        paused: row.paused,
        fillup_goal: row.fillupGoalId,
      },
    };
    return { event, result: await loadBudgetView(tx, row) };
  });
}
