import { randomUUID } from "node:crypto";
import type { RouteInput } from "@allot/contract/http/route";
import type { SyncScrapeInput, SyncScrapeResult } from "@allot/contract/import/import";
import type { importRoutes } from "@allot/contract/import/routes";
import { addToTotal, formatMoney, type Money, sumMoney, toMoney, ZERO } from "@allot/contract/money";
import { arrayLiteral } from "@allot/db/array-literal";
import type { Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { and, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import { currencyKeyErrors } from "../account-access/account-currency";
import type { BankAccountRow } from "../account-access/find-owned-account";
import { type AccountAct, writeAccount } from "../account-access/write-account";
import { unallocatedBudgetId } from "../budgets/unallocated-budget-id";
import { accountTimeZone } from "../calendar/account-time-zone";
import { localDate, startOfLocalDay } from "../calendar/local-days";
import { type AccountChange, listedIds } from "../events/record-event";
import { moneyText } from "../events/summary-text";
import { addDays } from "../funding/schedule-events";
import { changeAccountBalances, changeBudgetBalance, lockBudgets } from "../ledger/balances";
import { type LedgerKey, minKey } from "../ledger/ledger-key";
import { ascendingIds } from "../shared/ascending-ids";
import { ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { refreshSnapshotsFrom } from "../transactions/transaction-ledger";
import { balanceMismatch } from "./balance-mismatch";
import { type PlannedScrapeRow, planScrapeSync, type StoredScrapeRow } from "./plan-scrape-sync";
import { postingOrderMismatches } from "./posting-order";
import { type ScrapeRowDates, scrapeRowDates } from "./scrape-row-dates";

type ScrapeRow = PlannedScrapeRow & ScrapeRowDates & { transactionType: string };

/** Thrown inside a dry run's transaction to roll it back with the result it would have given. */
class DryRunResult extends Error {
  constructor(readonly result: SyncScrapeResult) {
    super("dry run");
  }
}

/**
 * POST /bank-accounts/{id}/sync-scrape/: the bank's current view of the account, newest first.
 * In one transaction with the account locked: the stored pending rows are removed (their effect
 * reversed), posted rows already stored are skipped, and the rest is inserted oldest first with an
 * Unallocated allocation each; balances, snapshots and the import pointers follow. Any invalid row
 * rejects the whole payload. A dry run does all of it and rolls back.
 */
export async function syncScrape(
  ctx: UseCaseContext,
  { id: accountId, ...input }: RouteInput<typeof importRoutes.syncScrape>,
): Promise<SyncScrapeResult> {
  try {
    return await writeAccount(ctx, { accountId, owner: ctx.actor }, async (tx, account) => {
      const act = await syncLockedAccount(tx, ctx, account, input);
      // Everything the sync did rolls back: no event, no notification, no change.
      if (input.dry_run) throw new DryRunResult(act.result);
      return act;
    });
  } catch (error) {
    if (error instanceof DryRunResult) return error.result;
    throw error;
  }
}

async function syncLockedAccount(
  tx: Tx,
  { now }: UseCaseContext,
  account: BankAccountRow,
  input: SyncScrapeInput,
): Promise<AccountAct<SyncScrapeResult>> {
  assertScrapeCurrencies(input, account.currency);
  const timeZone = await accountTimeZone(tx, account.id);
  const rows: ScrapeRow[] = input.transactions.map((row, index) => ({
    index,
    pending: row.is_pending,
    amount: formatMoney(row.amount),
    rawDescription: row.raw_description,
    transactionType: row.transaction_type ?? "",
    ...scrapeRowDates(row.posted_date, row.raw_description, timeZone),
  }));

  const unallocatedId = await unallocatedBudgetId(tx, account.id);
  const removed = await deletePendingRows(tx, account.id, unallocatedId);
  const stored = await storedPostedRows(tx, account.id, rows, timeZone);
  const plan = planScrapeSync(rows, stored, randomUUID);
  const added = totalsOf(plan.inserts);

  const budgetDeltas = new Map(removed.perBudget);
  addToTotal(budgetDeltas, unallocatedId, added.total);
  const from = minKey(removed.earliest, added.earliest);
  // A bank's new rows are nearly always the account's newest: then nothing stored comes after the
  // change, and the new rows' running balances are counted up here instead of refreshed.
  const refreshNeeded =
    from !== undefined && (await hasEventsFrom(tx, account.id, [...budgetDeltas.keys()], from));
  await insertRows(tx, account.id, unallocatedId, plan.inserts, {
    startingBalances: refreshNeeded
      ? null
      : {
          posted: toMoney(account.postedBalance),
          available: toMoney(account.availableBalance).minus(removed.total),
          unallocated: removed.unallocatedBalance,
        },
  });

  await changeAccountBalances(tx, account.id, {
    posted: added.posted,
    available: added.total.minus(removed.total),
    transactions: plan.inserts.length - removed.count,
  });
  for (const [budgetId, delta] of budgetDeltas) {
    if (!delta.eq(0)) await changeBudgetBalance(tx, budgetId, delta);
  }
  if (from && refreshNeeded)
    await refreshSnapshotsFrom(tx, account.id, from, {
      transactions: true,
      budgetIds: [...budgetDeltas.keys()],
    });

  const through =
    plan.lastPostedDay && (!account.lastPostedThrough || plan.lastPostedDay > account.lastPostedThrough)
      ? plan.lastPostedDay
      : account.lastPostedThrough;
  const [updated] = await tx
    .update(bankAccounts)
    .set({
      lastPostedThrough: through,
      lastImportedAt: sql`greatest(${bankAccounts.lastImportedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(bankAccounts.id, account.id))
    .returning({ available: bankAccounts.availableBalance });
  if (!updated) throw new Error("bank account update returned nothing");

  const postedIndexes = rows.filter((row) => !row.pending).map((row) => row.index);
  const insertedId = new Map(plan.inserts.map(({ id, row }) => [row.index, id]));
  const result: SyncScrapeResult = {
    deleted_pending: removed.count,
    inserted_posted: plan.inserts.filter(({ row }) => !row.pending).length,
    skipped_posted: plan.skipped.size,
    inserted_pending: plan.inserts.filter(({ row }) => row.pending).length,
    balance_mismatch: balanceMismatch(updated.available, input.ending_balance),
    posting_order_mismatches: postingOrderMismatches(
      postedIndexes.map((index) => ({
        index,
        amount: rows[index]?.amount ?? "0",
        running_balance: input.transactions[index]?.running_balance,
      })),
    ),
    last_posted_through: through,
    new_transaction_ids: rows.flatMap((row) => insertedId.get(row.index) ?? []),
    details_needed: postedIndexes.flatMap((index) => {
      const skipped = plan.skipped.get(index);
      if (skipped) return skipped.hasDetails ? [] : [{ index, transaction: skipped.id }];
      const id = insertedId.get(index);
      return id ? [{ index, transaction: id }] : [];
    }),
  };
  // One event per sync, whatever the row count; the owners' notices list the new posted rows,
  // newest first like the payload.
  const postedRows = plan.inserts.filter(({ row }) => !row.pending).reverse();
  return { event: syncedEvent(account, result), detail: { postedRows }, result };
}

/** The sync's `import.synced` event: its counts, the balance mismatch and the new rows' ids. */
function syncedEvent(account: { id: string; currency: string }, result: SyncScrapeResult): AccountChange {
  const added = result.inserted_posted + result.inserted_pending;
  return {
    accountId: account.id,
    type: "import.synced",
    says:
      `synced the bank's transactions: ${added} added (${result.inserted_posted} posted, ` +
      `${result.inserted_pending} pending), ${result.skipped_posted} already stored, ` +
      `${result.deleted_pending} pending removed` +
      (result.balance_mismatch === null
        ? ""
        : `, and the balance differs from the bank's by ${moneyText(result.balance_mismatch, account.currency)}`),
    data: {
      inserted_posted: result.inserted_posted,
      inserted_pending: result.inserted_pending,
      skipped_posted: result.skipped_posted,
      deleted_pending: result.deleted_pending,
      balance_mismatch: result.balance_mismatch,
      last_posted_through: result.last_posted_through,
      new_transaction_ids: listedIds(result.new_transaction_ids),
    },
  };
}

/** The payload's currency keys, each reported at its own path (`transactions.3.amount_currency`). */
function assertScrapeCurrencies(input: SyncScrapeInput, currency: string) {
  const errors = currencyKeyErrors(input, ["ending_balance_currency"], currency);
  input.transactions.forEach((row, index) => {
    for (const [key, messages] of Object.entries(currencyKeyErrors(row, ["amount_currency"], currency)))
      errors[`transactions.${index}.${key}`] = messages;
  });
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
}

/**
 * Removes the account's pending rows and tells what they held: their count and total, what each
 * budget loses, and the earliest of them. Budgets are locked (in id order, with Unallocated, which
 * every sync credits) before any row goes.
 */
async function deletePendingRows(tx: Tx, accountId: string, unallocatedId: string) {
  const al = transactionAllocations;
  const t = transactions;
  const held = await tx
    .select({ budgetId: al.budgetId, total: sql<string>`sum(${al.amount})` })
    .from(al)
    .innerJoin(t, eq(t.id, al.transactionId))
    .where(and(eq(t.bankAccountId, accountId), eq(t.pending, true), isNotNull(al.budgetId)))
    .groupBy(al.budgetId);
  const perBudget = new Map<string, Money>();
  for (const { budgetId, total } of held) if (budgetId) perBudget.set(budgetId, toMoney(total).neg());
  const locked = await lockBudgets(tx, accountId, [unallocatedId, ...perBudget.keys()]);
  const unallocatedBalance = toMoney(locked.get(unallocatedId)?.balance ?? "0").plus(
    perBudget.get(unallocatedId) ?? ZERO,
  );

  const deleted = await tx
    .delete(t)
    .where(and(eq(t.bankAccountId, accountId), eq(t.pending, true)))
    .returning({ amount: t.amount, at: t.transactionDate, createdAt: t.createdAt });
  let earliest: LedgerKey | undefined;
  for (const row of deleted) earliest = minKey(earliest, { at: row.at, createdAt: row.createdAt });
  const total = sumMoney(deleted.map((row) => row.amount));
  return { count: deleted.length, total, perBudget, earliest, unallocatedBalance };
}

/** Stored posted rows dated within a day of the payload's transaction days, in the account's calendar. */
async function storedPostedRows(
  tx: Tx,
  accountId: string,
  rows: readonly ScrapeRow[],
  timeZone: string,
): Promise<StoredScrapeRow[]> {
  const days = rows.filter((row) => !row.pending).map((row) => row.transactionDay);
  if (days.length === 0) return [];
  // YYYY-MM-DD texts sort like the days they name.
  const sorted = days.sort();
  const first = sorted[0] as string;
  const last = sorted[sorted.length - 1] as string;
  const t = transactions;
  const found = await tx
    .select({
      id: t.id,
      at: t.transactionDate,
      amount: t.amount,
      rawDescription: t.rawDescription,
      hasDetails: sql<boolean>`(${t.details} is not null)`,
    })
    .from(t)
    .where(
      and(
        eq(t.bankAccountId, accountId),
        eq(t.pending, false),
        gte(t.transactionDate, startOfLocalDay(addDays(first, -1), timeZone)),
        lt(t.transactionDate, startOfLocalDay(addDays(last, 2), timeZone)),
      ),
    )
    // Oldest first, so among equal candidates the oldest stored row is matched first.
    .orderBy(t.transactionDate, t.createdAt, t.id);
  return found.map((row) => ({
    id: row.id,
    transactionDate: localDate(row.at, timeZone),
    amount: row.amount,
    rawDescription: row.rawDescription,
    hasDetails: Boolean(row.hasDetails),
  }));
}

/** What the new rows add to the account, and the earliest of them. */
function totalsOf(inserts: readonly { row: ScrapeRow }[]) {
  let posted = ZERO;
  let total = ZERO;
  let earliest: LedgerKey | undefined;
  for (const { row } of inserts) {
    total = total.plus(row.amount);
    if (!row.pending) posted = posted.plus(row.amount);
    // Not created yet: from the start of their instant, before any row stored there.
    earliest = minKey(earliest, { at: row.transactionAt, createdAt: new Date(0) });
  }
  return { posted, total, earliest };
}

/**
 * Whether any stored transaction of the account, or transfer of these budgets, sits at or after
 * the key's date: their running balances would move with the change.
 */
async function hasEventsFrom(tx: Tx, accountId: string, budgetIds: string[], from: LedgerKey) {
  const at = from.at.toISOString();
  const budgets = sql.join(
    budgetIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const [row] = await tx
    .select({
      found: sql<boolean>`exists (select 1 from transactions where bank_account_id = ${accountId}
          and transaction_date >= ${at}::timestamptz)
        or exists (select 1 from internal_transactions where bank_account_id = ${accountId}
          and effective_date >= ${at}::timestamptz
          and (src_budget_id in (${budgets}) or dst_budget_id in (${budgets})))`,
    })
    .from(bankAccounts)
    .where(eq(bankAccounts.id, accountId));
  return Boolean(row?.found);
}

/**
 * Inserts the new rows and their Unallocated allocations in two statements. Rows are created in
 * the given order (oldest first), each a microsecond after the previous one, so the list order
 * (newest transaction date, then newest created) reproduces the bank's. With the balances just
 * before them (nothing stored comes after them), their running balances are written as they go in;
 * otherwise the refresh that follows computes them.
 */
async function insertRows(
  tx: Tx,
  accountId: string,
  unallocatedId: string,
  inserts: readonly { id: string; row: ScrapeRow }[],
  options: { startingBalances: { posted: Money; available: Money; unallocated: Money } | null },
) {
  if (inserts.length === 0) return;
  const snapshots = options.startingBalances
    ? runningBalances(inserts, options.startingBalances)
    : inserts.map(() => ({ posted: "0", available: "0", unallocated: "0" }));
  const ids = arrayLiteral(inserts.map(({ id }) => id));
  const amounts = arrayLiteral(inserts.map(({ row }) => row.amount));
  await tx.execute(sql`
    insert into transactions (id, bank_account_id, amount, posted_date, transaction_date,
      transaction_type, pending, raw_description, description, posted_balance_snapshot,
      available_balance_snapshot, created_at, modified_at)
    select r.id, ${accountId}::uuid, r.amount, r.posted, r.at, r.type, r.pending, r.raw, r.raw,
      r.posted_after, r.available_after,
      now() + r.n * interval '1 microsecond', now() + r.n * interval '1 microsecond'
    from unnest(
      ${ids}::uuid[],
      ${amounts}::numeric[],
      ${arrayLiteral(inserts.map(({ row }) => row.postedAt.toISOString()))}::timestamptz[],
      ${arrayLiteral(inserts.map(({ row }) => row.transactionAt.toISOString()))}::timestamptz[],
      ${arrayLiteral(inserts.map(({ row }) => row.transactionType))}::text[],
      ${arrayLiteral(inserts.map(({ row }) => String(row.pending)))}::boolean[],
      ${arrayLiteral(inserts.map(({ row }) => row.rawDescription))}::text[],
      ${arrayLiteral(snapshots.map((s) => s.posted))}::numeric[],
      ${arrayLiteral(snapshots.map((s) => s.available))}::numeric[]
    ) with ordinality as r(id, amount, posted, at, type, pending, raw, posted_after, available_after, n)
    -- In id order: appended to the id indexes rather than spread over them (shared/ascending-ids.ts).
    order by r.id`);
  await tx.execute(sql`
    insert into transaction_allocations (id, transaction_id, bank_account_id, budget_id, amount,
      budget_balance, created_at, modified_at)
    select r.allocation, r.id, ${accountId}::uuid, ${unallocatedId}::uuid, r.amount, r.balance_after,
      now() + r.n * interval '1 microsecond', now() + r.n * interval '1 microsecond'
    from unnest(
      ${arrayLiteral(ascendingIds(inserts.length))}::uuid[],
      ${ids}::uuid[],
      ${amounts}::numeric[],
      ${arrayLiteral(snapshots.map((s) => s.unallocated))}::numeric[]
    ) with ordinality as r(allocation, id, amount, balance_after, n)`);
}

/**
 * Each new row's running balances, in the list's order (transaction date, then creation, which is
 * the insert order): the balances before them plus every new row up to and including it.
 */
function runningBalances(
  inserts: readonly { row: ScrapeRow }[],
  start: { posted: Money; available: Money; unallocated: Money },
) {
  const order = inserts
    .map(({ row }, n) => ({ row, n }))
    .sort((a, b) => a.row.transactionAt.getTime() - b.row.transactionAt.getTime() || a.n - b.n);
  const snapshots = new Array<{ posted: string; available: string; unallocated: string }>(inserts.length);
  let { posted, available, unallocated } = start;
  for (const { row, n } of order) {
    if (!row.pending) posted = posted.plus(row.amount);
    available = available.plus(row.amount);
    unallocated = unallocated.plus(row.amount);
    snapshots[n] = {
      posted: formatMoney(posted),
      available: formatMoney(available),
      unallocated: formatMoney(unallocated),
    };
  }
  return snapshots;
}
