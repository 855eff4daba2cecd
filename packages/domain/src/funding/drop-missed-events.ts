import type { Tx } from "@allot/db/create-database";
import { budgets } from "@allot/db/schema/budgets";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";
import { and, eq, gte } from "drizzle-orm";
import type { BudgetRow } from "../ledger/balances";
import { dueFrom, eventKindOf, type FundingBudget, scheduleOf, toFundingBudget } from "./funding-budget";
import { addDays, eventDates } from "./schedule-events";

// Dates listed in a warning before the rest are counted.
const LISTED_DATES = 10;

/**
 * The events a paused budget missed, as its resume drops them: those dated before today from its
 * pointer on, and any a run recorded SKIPPED (`skipped`, the dates of those rows), ascending.
 */
export function missedEventDates(budget: FundingBudget, skipped: readonly string[], today: string): string[] {
  const from = dueFrom(budget);
  return [
    ...new Set([
      ...eventDates(scheduleOf(budget), from, addDays(today, -1)),
      ...skipped.filter((date) => date >= from),
    ]),
  ].sort();
}

/**
 * Unpausing drops the events the budget missed while paused (docs/spec/operations.md): those dated before
 * today, and any a run already recorded SKIPPED. The budget's pointer moves past them, so the
 * next run does not fund them late, and each budget with missed events gets a warning naming
 * them. The rows must be locked by the caller.
 */
export async function dropMissedEvents(tx: Tx, rows: BudgetRow[], today: string): Promise<string[]> {
  const warnings: string[] = [];
  for (const row of rows) {
    const budget = toFundingBudget(row);
    const kind = eventKindOf(budget);
    if (!kind) continue;
    const skipped = await tx
      .select({ date: fundingOccurrences.scheduledDate })
      .from(fundingOccurrences)
      .where(
        and(
          eq(fundingOccurrences.budgetId, budget.id),
          eq(fundingOccurrences.status, "SKIPPED"),
          gte(fundingOccurrences.scheduledDate, dueFrom(budget)),
        ),
      );
    const missed = missedEventDates(
      budget,
      skipped.map((s) => s.date),
      today,
    );
    const last = missed[missed.length - 1];
    if (!last) continue;
    await tx.update(budgets).set({ processedThrough: last }).where(eq(budgets.id, budget.id));
    const listed = missed.slice(0, LISTED_DATES).join(", ");
    const more = missed.length > LISTED_DATES ? ` and ${missed.length - LISTED_DATES} more` : "";
    const what = kind === "fund" ? "funding" : "refresh";
    warnings.push(
      `${budget.name}: ${missed.length} ${what} event${missed.length === 1 ? "" : "s"} missed while paused ` +
        `will not run (${listed}${more}).`,
    );
  }
  return warnings;
}
