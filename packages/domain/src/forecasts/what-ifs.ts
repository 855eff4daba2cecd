import type { ForecastWhatIfsSchema } from "@allot/contract/forecasts/forecast";
import { newBudgetName } from "@allot/contract/forecasts/forecast";
import { toMoney, ZERO } from "@allot/contract/money";
import type { Tx } from "@allot/db/create-database";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";
import { and, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { BankAccountRow } from "../account-access/find-owned-account";
import { prepareBudgetChanges } from "../budgets/budget-changes";
import type { BudgetFields } from "../budgets/budget-fields";
import { planBudgetUpdate } from "../budgets/budget-update";
import { newBudgetErrors, newBudgetRows } from "../budgets/new-budget";
import { checkFundingSchedule } from "../budgets/recurrence-grammar";
import { missedEventDates } from "../funding/drop-missed-events";
import { type FundingBudget, toFundingBudget } from "../funding/funding-budget";
import { eventDates } from "../funding/schedule-events";
import type { BudgetRow } from "../ledger/balances";
import { ValidationFailed } from "../shared/errors";
import { addError, type FieldErrors } from "../shared/validation";
import type { ForecastItem } from "./forecast-funding";

export type WhatIfs = z.output<typeof ForecastWhatIfsSchema>;

export interface WhatIfWorld {
  account: BankAccountRow;
  userId: number;
  today: string;
  until: string;
}

const NO_SUCH_BUDGET = "No budget of this account has this id.";
const ARCHIVED = "This budget is archived: it takes no part in a forecast.";

/**
 * The account's budgets and items with the what-ifs applied in memory, checked as the writes they
 * stand for would check them (prepareBudgetChanges, planBudgetUpdate, newBudgetErrors), every
 * refusal on its path (`changes.0.target_balance`): `changes` in order, a resume dropping the
 * events the budget missed as updateBudget would; then the new budgets, last in the engine's order,
 * with ids `new-1`, … (a Recurring one's fill-up goal `new-1-fillup`); then the items, each once
 * per date from today through until. auto_spend is checked by its shape only: it routes spending,
 * which a forecast does not simulate. Nothing is written.
 */
export async function applyWhatIfs(
  tx: Tx,
  world: WhatIfWorld,
  rows: readonly BudgetRow[],
  whatIfs: WhatIfs,
): Promise<{ budgets: FundingBudget[]; items: ForecastItem[] }> {
  const errors: FieldErrors = {};
  const nested = async <T>(path: string, check: (inner: FieldErrors) => Promise<T>) => {
    const inner: FieldErrors = {};
    const result = await check(inner);
    for (const [field, messages] of Object.entries(inner))
      for (const message of messages) addError(errors, `${path}.${field}`, message);
    return Object.keys(inner).length === 0 ? result : null;
  };
  const byId = new Map(rows.map((row) => [row.id, row]));
  const resumed = new Set<string>();

  for (const [index, { budget: id, ...fields }] of (whatIfs.changes ?? []).entries()) {
    const row = byId.get(id);
    if (!row || row.archived) {
      addError(errors, `changes.${index}.budget`, row ? ARCHIVED : NO_SUCH_BUDGET);
      continue;
    }
    await nested(`changes.${index}`, async (inner) => {
      const input = withoutAutoSpend(fields);
      const prepared = await prepareBudgetChanges(
        tx,
        world.userId,
        world.account,
        input,
        inner,
        row.autoSpend,
      );
      const { updates, mirror, changed } = planBudgetUpdate(row, input, prepared, inner);
      if (Object.keys(inner).length > 0) return;
      byId.set(row.id, { ...row, ...updates } as BudgetRow);
      const fillup = row.fillupGoalId ? byId.get(row.fillupGoalId) : undefined;
      if (fillup) byId.set(fillup.id, { ...fillup, ...mirror } as BudgetRow);
      if (changed.includes("paused") && updates.paused === false) {
        resumed.add(row.id);
        if (fillup) resumed.add(fillup.id);
      }
    });
  }
  await dropMissedEventsInMemory(tx, byId, resumed, world.today);

  const budgets = rows.map((row) => toFundingBudget(byId.get(row.id) ?? row));
  const newIds = new Set<string>();
  for (const [index, entry] of (whatIfs.budgets ?? []).entries()) {
    const made = await nested(`budgets.${index}`, async (inner) => {
      const input = withoutAutoSpend(entry);
      const prepared = await prepareBudgetChanges(tx, world.userId, world.account, input, inner);
      newBudgetErrors(entry, prepared, inner);
      return newBudgetRows(world.account.id, entry, prepared, world.today);
    });
    const id = newBudgetName(index);
    newIds.add(id);
    if (!made) continue;
    const fillupId = made.fillup ? `${id}-fillup` : null;
    if (made.fillup && fillupId) budgets.push(newFundingBudget(fillupId, made.fillup, null));
    budgets.push(newFundingBudget(id, made.budget, fillupId));
  }

  const items: ForecastItem[] = [];
  for (const [index, item] of (whatIfs.items ?? []).entries()) {
    const path = `items.${index}`;
    let budgetId: string | null = null;
    const named = item.budget?.toLowerCase();
    if (named) {
      const row = byId.get(named);
      if (newIds.has(named)) budgetId = named;
      else if (!row) addError(errors, `${path}.budget`, NO_SUCH_BUDGET);
      else if (row.archived) addError(errors, `${path}.budget`, ARCHIVED);
      else budgetId = row.isUnallocated ? null : row.id;
    }
    const dates = itemDates(item, world, path, errors);
    const amount = toMoney(item.amount);
    for (const date of dates) items.push({ date, budgetId, amount, description: item.description });
  }
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  return { budgets, items };
}

/** auto_spend routes spending, which a forecast does not simulate: its category names are not looked up. */
const withoutAutoSpend = <T extends BudgetFields>({ auto_spend: _ignored, ...fields }: T) => fields;

/** The dates an item happens on, from today through until; problems go into `errors`. */
function itemDates(
  item: NonNullable<WhatIfs["items"]>[number],
  { today, until }: WhatIfWorld,
  path: string,
  errors: FieldErrors,
): string[] {
  if ((item.date === undefined) === (item.schedule === undefined || item.schedule === "")) {
    addError(errors, `${path}.date`, "Give either a date or a schedule.");
    return [];
  }
  if (item.date !== undefined) {
    if (item.date < today || item.date > until) {
      addError(errors, `${path}.date`, `Must be from today (${today}) through until (${until}).`);
      return [];
    }
    return [item.date];
  }
  const checked = checkFundingSchedule(item.schedule ?? "", today);
  if (!checked.ok) {
    addError(errors, `${path}.schedule`, checked.message);
    return [];
  }
  return eventDates(checked.value, today, until);
}

/** What updateBudget's dropMissedEvents does to the resumed budgets' pointers, on the rows in memory. */
async function dropMissedEventsInMemory(
  tx: Tx,
  byId: Map<string, BudgetRow>,
  resumed: ReadonlySet<string>,
  today: string,
) {
  if (resumed.size === 0) return;
  const skipped = await tx
    .select({ budgetId: fundingOccurrences.budgetId, date: fundingOccurrences.scheduledDate })
    .from(fundingOccurrences)
    .where(and(inArray(fundingOccurrences.budgetId, [...resumed]), eq(fundingOccurrences.status, "SKIPPED")));
  for (const id of resumed) {
    const row = byId.get(id);
    if (!row) continue;
    const dates = skipped.filter((s) => s.budgetId === id).map((s) => s.date);
    const last = missedEventDates(toFundingBudget(row), dates, today).at(-1);
    if (last) byId.set(id, { ...row, processedThrough: last });
  }
}

/** A what-if budget as the engine reads it: a new row's defaults (nothing in it, nothing done yet). */
function newFundingBudget(
  id: string,
  row: ReturnType<typeof newBudgetRows>["budget"],
  fillupGoalId: string | null,
): FundingBudget {
  return {
    id,
    name: row.name,
    budgetType: row.budgetType,
    fundingType: row.fundingType,
    isUnallocated: false,
    balance: ZERO,
    fundedAmount: ZERO,
    targetBalance: toMoney(row.targetBalance ?? "0"),
    fundingAmount: row.fundingAmount == null ? null : toMoney(row.fundingAmount),
    targetDate: row.targetDate ?? null,
    fundingSchedule: row.fundingSchedule ?? "",
    recurrenceSchedule: row.recurrenceSchedule ?? null,
    fillupGoalId,
    paused: row.paused ?? false,
    archived: false,
    complete: false,
    schedulesFrom: row.schedulesFrom ?? "",
    processedThrough: null,
  };
}
