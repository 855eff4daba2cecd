import type { fundingRoutes } from "@allot/contract/funding/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { budgets } from "@allot/db/schema/budgets";
import { and, eq } from "drizzle-orm";
import { findOwnedAccount } from "../account-access/find-owned-account";
import { ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { eventKindOf, isRetired, scheduleOf, toFundingBudget } from "./funding-budget";
import { addDays, eventDates } from "./schedule-events";

// Ten years of days at most in one answer.
const MAX_RANGE_DAYS = 3_660;

/**
 * The days in (after, before] on which a fund or recur event of one of the account's budgets
 * falls: a calendar of the schedules of the budgets that get funded (not archived, paused or
 * complete), from the day each budget began.
 */
export async function fundingEventDates(
  { db, actor }: UseCaseContext,
  { id: accountId, after, before }: RouteInput<typeof fundingRoutes.eventDates>,
) {
  if (before <= after) throw ValidationFailed.on("before", "Must be later than after.");
  if (before > addDays(after, MAX_RANGE_DAYS))
    throw ValidationFailed.on("before", `At most ${MAX_RANGE_DAYS} days after after.`);
  const account = await findOwnedAccount(db, actor, accountId);
  const rows = await db
    .select()
    .from(budgets)
    .where(
      and(eq(budgets.bankAccountId, account.id), eq(budgets.archived, false), eq(budgets.paused, false)),
    );
  const dates = new Set<string>();
  for (const budget of rows.map(toFundingBudget)) {
    if (!eventKindOf(budget) || isRetired(budget)) continue;
    const from = budget.schedulesFrom > after ? budget.schedulesFrom : addDays(after, 1);
    for (const date of eventDates(scheduleOf(budget), from, before)) dates.add(date);
  }
  return { dates: [...dates].sort() };
}
