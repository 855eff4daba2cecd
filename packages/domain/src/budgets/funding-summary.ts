import type { fundingRoutes } from "@allot/contract/funding/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { formatMoney, type Money, sumMoney, ZERO } from "@allot/contract/money";
import { budgets } from "@allot/db/schema/budgets";
import { and, eq } from "drizzle-orm";
import { findOwnedAccount } from "../account-access/find-owned-account";
import type { UseCaseContext } from "../shared/use-case-context";
import { loadBudgetViews } from "./budget-view";

/**
 * Every budget's next_funding grouped by funding schedule, sorted by next date (spec, funding
 * summary rules). next_funding is already null for what the rules exclude: paused, archived and
 * completed budgets and Recurring budgets (a fill-up goal shares its parent's schedule text and is
 * counted under it).
 */
export async function fundingSummary(
  { db, actor }: UseCaseContext,
  { id }: RouteInput<typeof fundingRoutes.summary>,
) {
  const account = await findOwnedAccount(db, actor, id);
  const rows = await db
    .select()
    .from(budgets)
    .where(and(eq(budgets.bankAccountId, account.id), eq(budgets.archived, false)));
  const groups = new Map<string, { next_date: string; total: Money; budget_count: number }>();
  for (const [index, view] of (await loadBudgetViews(db, rows)).entries()) {
    const next = view.next_funding;
    const schedule = rows[index]?.fundingSchedule;
    if (!next || !schedule) continue;
    const group = groups.get(schedule) ?? { next_date: next.date, total: ZERO, budget_count: 0 };
    if (next.date < group.next_date) group.next_date = next.date;
    group.total = group.total.plus(next.amount);
    group.budget_count += 1;
    groups.set(schedule, group);
  }
  const schedules = [...groups.entries()]
    .map(([schedule, group]) => ({
      schedule,
      next_date: group.next_date,
      total_amount: formatMoney(group.total),
      currency: account.currency,
      budget_count: group.budget_count,
    }))
    .sort((a, b) => a.next_date.localeCompare(b.next_date) || a.schedule.localeCompare(b.schedule));
  const total = sumMoney(schedules.map((group) => group.total_amount));
  return { schedules, total_amount: formatMoney(total), currency: account.currency };
}
