import type { fundingRoutes } from "@allot/contract/funding/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { formatMoney } from "@allot/contract/money";
import { arrayLiteral } from "@allot/db/array-literal";
import type { Tx } from "@allot/db/create-database";
import { budgets } from "@allot/db/schema/budgets";
import { asc, eq, sql } from "drizzle-orm";
import type { BankAccountRow } from "../account-access/find-owned-account";
import { type AccountAct, writeAccount } from "../account-access/write-account";
import { accountTimeZone } from "../calendar/account-time-zone";
import { localDate, startOfLocalDay } from "../calendar/local-days";
import type { AccountChange } from "../events/record-event";
import { countOf } from "../events/summary-text";
import { stampedSet } from "../ledger/change-number";
import { type LedgerKey, minKey } from "../ledger/ledger-key";
import { refreshBudgetSnapshots } from "../ledger/snapshots";
import { ascendingIds } from "../shared/ascending-ids";
import { ValidationFailed } from "../shared/errors";
import type { PublicContext, UseCaseContext } from "../shared/use-case-context";
import { type EventKind, inFundingOrder, toFundingBudget } from "./funding-budget";
import { type FundingPlan, planFunding } from "./funding-plan";
import { readOpenOccurrences } from "./open-occurrences";
import { addDays } from "./schedule-events";

export type { EventKind } from "./funding-budget";

export interface FundingRunOptions {
  /** Events dated on or before this local date (YYYY-MM-DD) are due; default: the account's today. */
  asOf?: string;
  /** Which events start a run (cron runs fund and recur at different hours); default both. */
  kinds?: EventKind[];
  /** Recorded as the actor of the transfers; null for the scheduler. */
  actorId?: number | null;
}

export interface FundingRunResult {
  transfers: number;
  occurrences_completed: number;
  occurrences_partial: number;
  warnings: string[];
  skipped_budgets: string[];
}

// A run reaches at most this far ahead: a year of daily events for a thousand budgets is fine,
// a date in the year 9999 is not.
const MAX_DAYS_AHEAD = 3_660;

/** Runs the funding engine on one account (no ownership check: the scheduler's entry point). */
export async function runAccountFunding(
  ctx: PublicContext,
  accountId: string,
  options: FundingRunOptions = {},
): Promise<FundingRunResult> {
  return writeAccount(ctx, { accountId, owner: null }, (tx, account) =>
    fundLockedAccount(tx, ctx, account, options),
  );
}

/**
 * POST /bank-accounts/{id}/run-funding/: every due fund and recur event of the caller's account
 * through `as_of` (default the account's today), whatever auto_funding_enabled says.
 */
export async function runFunding(
  ctx: UseCaseContext,
  { id: accountId, as_of: asOf }: RouteInput<typeof fundingRoutes.run>,
) {
  const { actor } = ctx;
  return writeAccount(ctx, { accountId, owner: actor }, (tx, account) =>
    fundLockedAccount(tx, ctx, account, { asOf, actorId: actor.userId }),
  );
}

/**
 * The run itself, with the account row locked (which serialises runs of one account: a second run
 * waits, then finds the pointers moved and funds nothing twice). Every budget of the account is
 * locked next, in id order like lockBudgets; the plan is worked out in memory and written in a
 * handful of multi-row statements, so a year of events costs a few round trips, not thousands.
 * `ctx.now` is the run's now: the account's today is read from it. A run that moved money is
 * recorded in the activity trail (one event, whatever the number of transfers).
 */
async function fundLockedAccount(
  tx: Tx,
  ctx: PublicContext | UseCaseContext,
  account: BankAccountRow,
  options: FundingRunOptions,
): Promise<AccountAct<FundingRunResult>> {
  const { now } = ctx;
  const timeZone = await accountTimeZone(tx, account.id);
  const today = localDate(now, timeZone);
  const asOf = options.asOf ?? today;
  if (asOf > addDays(today, MAX_DAYS_AHEAD))
    throw ValidationFailed.on(
      "as_of",
      `Funding runs at most ${MAX_DAYS_AHEAD} days ahead of today (${today}).`,
    );
  // Events dated after the latest imported posting wait for the import that reaches them.
  const gate = account.lastPostedThrough;
  const horizon = gate && gate < asOf ? gate : asOf;

  const rows = await tx
    .select()
    .from(budgets)
    .where(eq(budgets.bankAccountId, account.id))
    .orderBy(asc(budgets.id))
    .for("update");
  const plan = planFunding({
    budgets: inFundingOrder(rows).map(toFundingBudget),
    open: await readOpenOccurrences(tx, account.id),
    horizon,
    kinds: new Set(options.kinds ?? ["fund", "recur"]),
  });
  await writePlan(tx, account.id, plan, { actorId: options.actorId ?? null, timeZone });

  const warnings = [...plan.warnings];
  if (horizon < asOf)
    warnings.push(
      `Events after ${horizon}, the latest imported posting date, wait for an import that reaches them.`,
    );
  const touched = plan.occurrences.filter((occurrence) => occurrence.status !== "SKIPPED");
  const result = {
    transfers: plan.transfers.length,
    occurrences_completed: touched.filter((occurrence) => occurrence.status === "COMPLETE").length,
    occurrences_partial: touched.filter((occurrence) => occurrence.status === "PARTIAL").length,
    warnings,
    skipped_budgets: plan.skippedBudgets,
  };
  return {
    event: fundingEvent(account.id, plan, result),
    // A run that moved nothing records nothing (decision 0031); its refreshes are still told.
    unrecorded: result.transfers === 0,
    detail: { refreshedBudgets: refreshedBudgets(plan, new Map(rows.map((b) => [b.id, b.name]))) },
    result,
  };
}

/**
 * `funding.completed` for a run that moved money, `funding.underfunded` when it left an occurrence
 * PARTIAL (decision 0031). Goals the run latched complete are listed in `completed_budgets`.
 */
function fundingEvent(accountId: string, plan: FundingPlan, result: FundingRunResult): AccountChange {
  const funded = [...new Set(plan.transfers.map((transfer) => transfer.destinationId))];
  const underfunded = result.occurrences_partial > 0;
  const says = `funded ${countOf(funded.length, "budget")} in ${countOf(result.transfers, "transfer")}`;
  return {
    accountId,
    type: underfunded ? "funding.underfunded" : "funding.completed",
    says: underfunded
      ? `${says}, leaving ${countOf(result.occurrences_partial, "occurrence")} underfunded`
      : says,
    data: {
      transfers: result.transfers,
      occurrences_completed: result.occurrences_completed,
      occurrences_partial: result.occurrences_partial,
      funded_budgets: funded,
      completed_budgets: plan.completions.map((completion) => completion.budgetId),
    },
  };
}

/** The Recurring budgets the run refreshed, by name, in the run's order. */
const refreshedBudgets = (plan: FundingPlan, names: Map<string, string>) => [
  ...new Set(
    plan.occurrences
      .filter((occurrence) => occurrence.kind === "recur" && occurrence.status === "COMPLETE")
      .map((occurrence) => names.get(occurrence.budgetId) ?? occurrence.budgetId),
  ),
];

async function writePlan(
  tx: Tx,
  accountId: string,
  plan: FundingPlan,
  context: { actorId: number | null; timeZone: string },
) {
  const startOfDay = new Map<string, string>();
  const effectiveDate = (date: string) => {
    let at = startOfDay.get(date);
    if (!at) {
      at = startOfLocalDay(date, context.timeZone).toISOString();
      startOfDay.set(date, at);
    }
    return at;
  };

  // Transfers happen at the start of their event's local date, so running balances read in date
  // order. They share created_at (the transaction's now()), so ids are handed out in plan order:
  // the snapshots the plan computed are then already right unless older rows come later.
  const { transfers } = plan;
  if (transfers.length > 0) {
    const ids = ascendingIds(transfers.length);
    await tx.execute(sql`
      insert into internal_transactions (id, bank_account_id, amount, src_budget_id, dst_budget_id,
        actor_id, effective_date, src_budget_balance, dst_budget_balance)
      select t.id, ${accountId}::uuid, t.amount, t.src, t.dst, ${context.actorId}::int, t.at, t.src_after, t.dst_after
      from unnest(
        ${arrayLiteral(ids)}::uuid[],
        ${arrayLiteral(transfers.map((t) => formatMoney(t.amount)))}::numeric[],
        ${arrayLiteral(transfers.map((t) => t.sourceId))}::uuid[],
        ${arrayLiteral(transfers.map((t) => t.destinationId))}::uuid[],
        ${arrayLiteral(transfers.map((t) => effectiveDate(t.date)))}::timestamptz[],
        ${arrayLiteral(transfers.map((t) => formatMoney(t.sourceBalance)))}::numeric[],
        ${arrayLiteral(transfers.map((t) => formatMoney(t.destinationBalance)))}::numeric[]
      ) as t(id, amount, src, dst, at, src_after, dst_after)`);
  }

  const added = plan.occurrences.filter((occurrence) => occurrence.id === undefined);
  if (added.length > 0)
    await tx.execute(sql`
      insert into funding_occurrences (id, bank_account_id, budget_id, kind, scheduled_date, status,
        amount, moved_amount, completed_at)
      select o.id, ${accountId}::uuid, o.budget, o.kind, o.scheduled, o.status, o.amount, o.moved,
        case when o.status = 'COMPLETE' then now() end
      from unnest(
        ${arrayLiteral(ascendingIds(added.length))}::uuid[],
        ${arrayLiteral(added.map((o) => o.budgetId))}::uuid[],
        ${arrayLiteral(added.map((o) => o.kind))}::text[],
        ${arrayLiteral(added.map((o) => o.scheduledDate))}::date[],
        ${arrayLiteral(added.map((o) => o.status))}::text[],
        ${arrayLiteral(added.map((o) => formatMoney(o.amount)))}::numeric[],
        ${arrayLiteral(added.map((o) => formatMoney(o.movedAmount)))}::numeric[]
      ) as o(id, budget, kind, scheduled, status, amount, moved)
      -- A paused budget's events are recorded SKIPPED once, however many runs meet them.
      on conflict (budget_id, kind, scheduled_date) do nothing`);
  const toppedUp = plan.occurrences.filter((occurrence) => occurrence.id !== undefined);
  if (toppedUp.length > 0)
    await tx.execute(sql`
      update funding_occurrences o
      set ${stampedSet(
        sql`status = v.status`,
        sql`moved_amount = v.moved`,
        sql`completed_at = case when v.status = 'COMPLETE' then now() end`,
        sql`modified_at = now()`,
      )}
      from unnest(
        ${arrayLiteral(toppedUp.map((o) => o.id ?? ""))}::uuid[],
        ${arrayLiteral(toppedUp.map((o) => o.status))}::text[],
        ${arrayLiteral(toppedUp.map((o) => formatMoney(o.movedAmount)))}::numeric[]
      ) as v(id, status, moved)
      where o.id = v.id`);

  // The budgets were locked and planned from their locked values: their new state is exact. They
  // are written after the rows that reference them: a foreign-key check on a row this transaction
  // has already updated costs more.
  const { changed } = plan;
  if (changed.length > 0)
    await tx.execute(sql`
      update budgets b
      set ${stampedSet(
        sql`balance = v.balance`,
        sql`funded_amount = v.funded_amount`,
        sql`complete = v.complete`,
        sql`processed_through = v.processed_through`,
        sql`modified_at = now()`,
      )}
      from unnest(
        ${arrayLiteral(changed.map((b) => b.id))}::uuid[],
        ${arrayLiteral(changed.map((b) => formatMoney(b.balance)))}::numeric[],
        ${arrayLiteral(changed.map((b) => formatMoney(b.fundedAmount)))}::numeric[],
        ${arrayLiteral(changed.map((b) => String(b.complete)))}::boolean[],
        ${arrayLiteral(changed.map((b) => b.processedThrough))}::date[]
      ) as v(id, balance, funded_amount, complete, processed_through)
      where b.id = v.id`);

  // Rows dated after the run's earliest event (older imports, other transfers) move with it.
  const from = transfers.reduce<LedgerKey | undefined>(
    (earliest, transfer) =>
      minKey(earliest, { at: new Date(effectiveDate(transfer.date)), createdAt: new Date(0) }),
    undefined,
  );
  if (from)
    await refreshBudgetSnapshots(
      tx,
      accountId,
      changed.map((budget) => budget.id),
      from,
    );
}
