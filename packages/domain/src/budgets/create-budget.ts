import { BUDGET_TYPE, FUNDING_TYPE } from "@allot/contract/budgets/budget-kinds";
import type { budgetRoutes } from "@allot/contract/budgets/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { formatMoney, ZERO } from "@allot/contract/money";
import { budgets } from "@allot/db/schema/budgets";
import { accountNamedIn, writeAccount } from "../account-access/write-account";
import { accountToday } from "../calendar/account-time-zone";
import type { AccountChange } from "../events/record-event";
import type { BudgetRow } from "../ledger/balances";
import { ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { addError, type FieldErrors } from "../shared/validation";
import { prepareBudgetChanges } from "./budget-changes";
import { fillupName } from "./budget-fields";
import { budgetRuleErrors } from "./budget-rules";
import { loadBudgetView } from "./budget-view";

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
    if (input.budget_type === BUDGET_TYPE.fillup)
      addError(
        errors,
        "budget_type",
        "Fill-up goals are created with their Recurring budget, not on their own.",
      );
    const { columns, targetBalance, fundingAmount } = await prepareBudgetChanges(
      tx,
      actor.userId,
      account,
      input,
      errors,
    );
    budgetRuleErrors(
      {
        budgetType: input.budget_type,
        fundingType: input.funding_type,
        targetBalance: targetBalance ?? ZERO,
        fundingAmount: fundingAmount ?? null,
        targetDate: input.target_date ?? null,
        recurrenceSchedule: columns.recurrenceSchedule ?? null,
      },
      errors,
    );
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);

    // Schedules fire from the day the budget is made: events dated before it are not due.
    const schedulesFrom = await accountToday(tx, account.id, now);
    let fillup: BudgetRow | undefined;
    if (input.budget_type === BUDGET_TYPE.recurring) {
      [fillup] = await tx
        .insert(budgets)
        .values({
          bankAccountId: account.id,
          name: fillupName(input.name),
          budgetType: BUDGET_TYPE.fillup,
          fundingType: FUNDING_TYPE.targetDate,
          targetBalance: columns.targetBalance ?? "0",
          fundingSchedule: columns.fundingSchedule ?? "",
          paused: columns.paused ?? false,
          schedulesFrom,
        })
        .returning();
      if (!fillup) throw new Error("fill-up goal insert returned nothing");
    }
    const [row] = await tx
      .insert(budgets)
      .values({
        ...columns,
        bankAccountId: account.id,
        name: input.name,
        budgetType: input.budget_type,
        fundingType: input.funding_type,
        fillupGoalId: fillup?.id ?? null,
        schedulesFrom,
      })
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
