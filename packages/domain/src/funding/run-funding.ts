import type { Database, Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import Big from "big.js";
import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { type BankAccountRow, findOwnedAccount } from "../bank-accounts/find-owned-account";
import { accountTimeZone, localDate, startOfLocalDay } from "../budgets/account-today";
import { refreshBudgetSnapshots } from "../ledger/snapshots";
import type { Actor } from "../shared/actor";
import { NotFound, ValidationFailed } from "../shared/errors";
import { type EventKind, toFundingBudget } from "./funding-budget";
import { type FundingPlan, planFunding } from "./funding-plan";
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
// Rows per multi-row insert or update: well under PostgreSQL's 65,535 parameters.
const CHUNK = 2_000;

/** Runs the funding engine on one account (no ownership check: the scheduler's entry point). */
export async function runAccountFunding(
  db: Database,
  accountId: string,
  options: FundingRunOptions = {},
): Promise<FundingRunResult> {
  return db.transaction(async (tx) => {
    const [account] = await tx
      .select()
      .from(bankAccounts)
      .where(eq(bankAccounts.id, accountId))
      .for("update");
    if (!account) throw new NotFound("No bank account matches the given id.");
    return fundLockedAccount(tx, account, options);
  });
}

/**
 * POST /bank-accounts/{id}/run-funding/: every due fund and recur event of the caller's account
 * through `as_of` (default the account's today), whatever auto_funding_enabled says.
 */
export async function runFunding(db: Database, actor: Actor, accountId: string, asOf?: string) {
  return db.transaction(async (tx) => {
    const account = await findOwnedAccount(tx, actor, accountId, { lock: true });
    return fundLockedAccount(tx, account, { asOf, actorId: actor.userId });
  });
}

/**
 * The run itself, with the account row locked (which serialises runs of one account: a second run
 * waits, then finds the pointers moved and funds nothing twice). Every budget of the account is
 * locked next, in id order like lockBudgets; the plan is worked out in memory and written in a
 * handful of multi-row statements, so a year of events costs a few round trips, not thousands.
 */
async function fundLockedAccount(
  tx: Tx,
  account: BankAccountRow,
  options: FundingRunOptions,
): Promise<FundingRunResult> {
  const timeZone = await accountTimeZone(tx, account.id);
  const today = localDate(new Date(), timeZone);
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
  const open = await tx
    .select({
      id: fundingOccurrences.id,
      budgetId: fundingOccurrences.budgetId,
      scheduledDate: fundingOccurrences.scheduledDate,
      amount: fundingOccurrences.amount,
      movedAmount: fundingOccurrences.movedAmount,
    })
    .from(fundingOccurrences)
    .where(and(eq(fundingOccurrences.bankAccountId, account.id), eq(fundingOccurrences.status, "PARTIAL")));
  // Ties on one date go to the budget made first.
  const ordered = [...rows].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1),
  );
  const plan = planFunding({
    budgets: ordered.map(toFundingBudget),
    open: open.map((row) => ({ ...row, amount: new Big(row.amount), movedAmount: new Big(row.movedAmount) })),
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
  return {
    transfers: plan.transfers.length,
    occurrences_completed: touched.filter((occurrence) => occurrence.status === "COMPLETE").length,
    occurrences_partial: touched.filter((occurrence) => occurrence.status === "PARTIAL").length,
    warnings,
    skipped_budgets: plan.skippedBudgets,
  };
}

const chunks = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));

const valuesList = (rows: SQL[]) => sql.join(rows, sql`, `);

async function writePlan(
  tx: Tx,
  accountId: string,
  plan: FundingPlan,
  context: { actorId: number | null; timeZone: string },
) {
  const now = new Date();
  const startOfDay = new Map<string, Date>();
  const effectiveDate = (date: string) => {
    let at = startOfDay.get(date);
    if (!at) {
      at = startOfLocalDay(date, context.timeZone);
      startOfDay.set(date, at);
    }
    return at;
  };

  // Transfers happen at the start of their event's local date, so running balances read in date order.
  for (const part of chunks(plan.transfers))
    await tx.insert(internalTransactions).values(
      part.map((transfer) => ({
        bankAccountId: accountId,
        amount: transfer.amount.toFixed(2),
        srcBudgetId: transfer.sourceId,
        dstBudgetId: transfer.destinationId,
        actorId: context.actorId,
        effectiveDate: effectiveDate(transfer.date),
      })),
    );

  // The budgets were locked and planned from their locked values: their new state is exact.
  for (const part of chunks(plan.changed))
    await tx.execute(sql`
      update budgets b
      set balance = v.balance, funded_amount = v.funded_amount, complete = v.complete,
          processed_through = v.processed_through, modified_at = now()
      from (values ${valuesList(
        part.map(
          (budget) =>
            sql`(${budget.id}::uuid, ${budget.balance.toFixed(2)}::numeric, ${budget.fundedAmount.toFixed(2)}::numeric,
                 ${budget.complete}::boolean, ${budget.processedThrough}::date)`,
        ),
      )}) as v(id, balance, funded_amount, complete, processed_through)
      where b.id = v.id`);

  const isNew = plan.occurrences.filter((occurrence) => occurrence.id === undefined);
  for (const part of chunks(isNew))
    await tx
      .insert(fundingOccurrences)
      .values(
        part.map((occurrence) => ({
          bankAccountId: accountId,
          budgetId: occurrence.budgetId,
          kind: occurrence.kind,
          scheduledDate: occurrence.scheduledDate,
          status: occurrence.status,
          amount: occurrence.amount.toFixed(2),
          movedAmount: occurrence.movedAmount.toFixed(2),
          completedAt: occurrence.status === "COMPLETE" ? now : null,
        })),
      )
      // A paused budget's events are recorded SKIPPED once, however many runs meet them.
      .onConflictDoNothing();
  const toppedUp = plan.occurrences.filter((occurrence) => occurrence.id !== undefined);
  for (const part of chunks(toppedUp))
    await tx.execute(sql`
      update funding_occurrences o
      set status = v.status, moved_amount = v.moved_amount,
          completed_at = case when v.status = 'COMPLETE' then now() end, modified_at = now()
      from (values ${valuesList(
        part.map(
          (occurrence) =>
            sql`(${occurrence.id}::uuid, ${occurrence.status}, ${occurrence.movedAmount.toFixed(2)}::numeric)`,
        ),
      )}) as v(id, status, moved_amount)
      where o.id = v.id`);

  const earliest = plan.transfers.reduce<string | null>(
    (first, transfer) => (first === null || transfer.date < first ? transfer.date : first),
    null,
  );
  if (earliest)
    await refreshBudgetSnapshots(
      tx,
      accountId,
      plan.changed.map((budget) => budget.id),
      { at: effectiveDate(earliest), createdAt: new Date(0) },
    );
}
