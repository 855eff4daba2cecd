import type { budgetRoutes } from "@allot/contract/budgets/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { formatMoney } from "@allot/contract/money";
import { budgets } from "@allot/db/schema/budgets";
import { eq } from "drizzle-orm";
import { accountToday } from "../calendar/account-time-zone";
import type { AccountChange } from "../events/record-event";
import { moneyText } from "../events/summary-text";
import { dropMissedEvents } from "../funding/drop-missed-events";
import type { BudgetRow } from "../ledger/balances";
import { ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import type { FieldErrors } from "../shared/validation";
import { prepareBudgetChanges } from "./budget-changes";
import { type Field, planBudgetUpdate } from "./budget-update";
import { loadBudgetView } from "./budget-view";
import { writeOwnedBudget } from "./find-owned-budget";

/**
 * The event of a PUT or PATCH (decision 0031): `budget.completed` when it latched a Goal complete,
 * `budget.paused` / `budget.resumed` when paused is the only value it changed, else
 * `budget.updated`, also for a request that changed nothing. `changes` names the fields sent.
 */
function budgetEvent(
  currency: string,
  before: BudgetRow,
  after: BudgetRow,
  sent: Field[],
  changed: Field[],
  warnings: string[],
): AccountChange {
  const base = { accountId: before.bankAccountId, data: { budget: before.id, changes: sent } };
  if (after.complete && !before.complete)
    return {
      ...base,
      type: "budget.completed",
      says: `completed the Goal ${after.name} by setting its target to ${moneyText(after.targetBalance, currency)}`,
      data: {
        ...base.data,
        target_balance: formatMoney(after.targetBalance),
        funded_amount: formatMoney(after.fundedAmount),
      },
    };
  if (changed.length === 1 && changed[0] === "paused")
    return after.paused
      ? { ...base, type: "budget.paused", says: `paused the budget ${after.name}` }
      : {
          ...base,
          type: "budget.resumed",
          says: `resumed the budget ${after.name}`,
          data: { ...base.data, warnings },
        };
  const renamed = after.name !== before.name ? ` (formerly ${before.name})` : "";
  return { ...base, type: "budget.updated", says: `updated the budget ${after.name}${renamed}` };
}

/**
 * PUT and PATCH: the update planBudgetUpdate checks (400 on each field it refuses), written, its
 * fill-up goal taking the mirrored fields. Read-only fields such as balance are not part of the
 * input and are ignored. Resuming a paused budget drops the events it missed, and `warnings`
 * names them.
 */
export async function updateBudget(
  ctx: UseCaseContext,
  { id, ...input }: RouteInput<typeof budgetRoutes.update>,
) {
  const { actor } = ctx;
  return writeOwnedBudget(ctx, id, async (tx, { account, budget, fillup }) => {
    const errors: FieldErrors = {};
    const prepared = await prepareBudgetChanges(tx, actor.userId, account, input, errors, budget.autoSpend);
    const { sent, changed, updates, mirror } = planBudgetUpdate(budget, input, prepared, errors);
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
    if (changed.length === 0)
      return {
        event: budgetEvent(account.currency, budget, budget, sent, changed, []),
        result: { ...(await loadBudgetView(tx, budget)), warnings: [] as string[] },
      };

    const [updated] = await tx.update(budgets).set(updates).where(eq(budgets.id, budget.id)).returning();
    if (!updated) throw new Error("budget update returned nothing");
    if (fillup && Object.keys(mirror).length > 0)
      await tx.update(budgets).set(mirror).where(eq(budgets.id, fillup.id));
    const resumed = changed.includes("paused") && updated.paused === false;
    const warnings = resumed
      ? await dropMissedEvents(tx, fillup ? [updated, fillup] : [updated], await accountToday(tx, account.id))
      : [];
    const [current] = resumed ? await tx.select().from(budgets).where(eq(budgets.id, budget.id)) : [updated];
    return {
      event: budgetEvent(account.currency, budget, updated, sent, changed, warnings),
      result: { ...(await loadBudgetView(tx, current ?? updated)), warnings },
    };
  });
}
