import type { RouteInput } from "@allot/contract/http/route";
import type {
  DETAILS_STATUSES,
  TransactionDetailsItem,
  TransactionDetailsResponse,
} from "@allot/contract/import/import";
import type { importRoutes } from "@allot/contract/import/routes";
import { addToTotal, type Money, sumMoney } from "@allot/contract/money";
import type { Tx } from "@allot/db/create-database";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { and, asc, eq, inArray } from "drizzle-orm";
import { writeAccount } from "../account-access/write-account";
import type { AllocationRow } from "../allocations/allocation-view";
import { unallocatedBudgetId } from "../budgets/unallocated-budget-id";
import { listedIds } from "../events/record-event";
import { countOf } from "../events/summary-text";
import { changeBudgetBalance, lockBudgets } from "../ledger/balances";
import { type LedgerKey, minKey } from "../ledger/ledger-key";
import type { UseCaseContext } from "../shared/use-case-context";
import { findAutoSpendBudget } from "../transactions/auto-spend";
import { ledgerKeyOf, refreshSnapshotsFrom } from "../transactions/transaction-ledger";
import type { TransactionRow } from "../transactions/transaction-view";
import { detailsCategoryResolver } from "./details-category";
import { writeAllocations, writeEnrichedTransactions } from "./details-writes";
import { enrichTransaction } from "./enrich-transaction";

type Status = (typeof DETAILS_STATUSES)[number];

/** What the request changes, worked out in memory before anything is written. */
interface Plan {
  allocations: Map<string, AllocationRow[]>;
  changedRows: Set<TransactionRow>;
  changedAllocations: Set<AllocationRow>;
  /** Budget balance changes from auto_spend routing (Unallocated down, the routed budget up). */
  deltas: Map<string, Money>;
  /** The earliest routed transaction: budget running balances are refreshed from there. */
  earliest: LedgerKey | undefined;
}

/**
 * Attaches providers' details records to posted transactions of one of the caller's accounts
 * (another user's account is 404). One transaction: the account locked first, then the rows the
 * request names (in id order), then the categories it names, then the budgets routing touches.
 * Items are applied in submission order against an in-memory copy, so a transaction named twice
 * sees the first item's result; everything is written at the end in a few statements.
 */
export async function applyTransactionDetails(
  ctx: UseCaseContext,
  { id: accountId, ...input }: RouteInput<typeof importRoutes.transactionDetails>,
): Promise<TransactionDetailsResponse> {
  const { actor } = ctx;
  return writeAccount(ctx, { accountId, owner: actor }, async (tx, account) => {
    const rows = await lockNamedTransactions(tx, account.id, input.details);
    const plan: Plan = {
      allocations: await loadSeedableAllocations(tx, rows, input.details),
      changedRows: new Set(),
      changedAllocations: new Set(),
      deltas: new Map(),
      earliest: undefined,
    };
    const resolveCategory = detailsCategoryResolver(tx, actor.userId);
    const routes = new Map<string, string | null>();
    let unallocatedId: string | undefined;

    /** Seeds the row's category and its unassigned allocations; routes the Unallocated part. */
    const seedCategory = async (row: TransactionRow, name: string, warnings: string[]) => {
      const found = await resolveCategory(name);
      if ("warning" in found) {
        warnings.push(found.warning);
        return;
      }
      row.categoryId = found.category.id;
      const allocations = plan.allocations.get(row.id) ?? [];
      for (const allocation of allocations.filter((a) => a.categoryId === null)) {
        allocation.categoryId = found.category.id;
        plan.changedAllocations.add(allocation);
      }
      if (!routes.has(found.fullName))
        routes.set(found.fullName, await findAutoSpendBudget(tx, account.id, found.fullName));
      const routedId = routes.get(found.fullName);
      if (!routedId) return;
      unallocatedId ??= await unallocatedBudgetId(tx, account.id);
      const moving = allocations.filter((a) => a.budgetId === unallocatedId);
      if (moving.length === 0) return;
      const part = sumMoney(moving.map((allocation) => allocation.amount));
      for (const allocation of moving) {
        allocation.budgetId = routedId;
        plan.changedAllocations.add(allocation);
      }
      addToTotal(plan.deltas, unallocatedId, part.neg());
      addToTotal(plan.deltas, routedId, part);
      const key = ledgerKeyOf(row);
      plan.earliest = minKey(plan.earliest, key);
    };

    const applyItem = async (item: TransactionDetailsItem, warnings: string[]): Promise<Status> => {
      const row = rows.get(item.transaction);
      if (!row) return "not_found";
      if (row.pending) return "skipped_pending";
      if (row.details !== null && !input.overwrite) return "skipped_has_details";
      const enrichment = enrichTransaction(row, item.details);
      warnings.push(...enrichment.warnings);
      Object.assign(row, enrichment.values);
      plan.changedRows.add(row);
      if (row.categoryId === null && item.category) await seedCategory(row, item.category, warnings);
      return "applied";
    };

    const response: TransactionDetailsResponse = {
      applied: 0,
      skipped_has_details: 0,
      skipped_pending: 0,
      not_found: 0,
      results: [],
    };
    for (const item of input.details) {
      const warnings: string[] = [];
      const status = await applyItem(item, warnings);
      response[status] += 1;
      response.results.push({ transaction: item.transaction, status, warnings });
    }

    if (plan.deltas.size > 0) await lockBudgets(tx, account.id, [...plan.deltas.keys()]);
    await writeEnrichedTransactions(tx, [...plan.changedRows]);
    await writeAllocations(tx, [...plan.changedAllocations]);
    for (const [budgetId, delta] of plan.deltas) await changeBudgetBalance(tx, budgetId, delta);
    if (plan.earliest)
      await refreshSnapshotsFrom(tx, account.id, plan.earliest, {
        transactions: false,
        budgetIds: [...plan.deltas.keys()],
      });
    // One event per request, recorded even when no item applied (the caller asked).
    const applied = [...plan.changedRows].map((row) => row.id);
    return {
      event: {
        accountId: account.id,
        type: "transaction.enriched",
        says: `added details to ${countOf(applied.length, "transaction")}`,
        data: {
          applied: response.applied,
          skipped_has_details: response.skipped_has_details,
          skipped_pending: response.skipped_pending,
          not_found: response.not_found,
          overwrite: input.overwrite ?? false,
          transactions: listedIds(applied),
          // Budgets whose balance moved: an Unallocated part routed by a seeded category's auto_spend.
          budgets: listedIds([...plan.deltas].filter(([, delta]) => !delta.eq(0)).map(([budget]) => budget)),
        },
      },
      result: response,
    };
  });
}

/** The account's rows among those the items name, locked in id order; other ids are simply absent. */
async function lockNamedTransactions(tx: Tx, accountId: string, items: TransactionDetailsItem[]) {
  const ids = [...new Set(items.map((item) => item.transaction))];
  if (ids.length === 0) return new Map<string, TransactionRow>();
  const rows = await tx
    .select()
    .from(transactions)
    .where(and(eq(transactions.bankAccountId, accountId), inArray(transactions.id, ids)))
    .orderBy(asc(transactions.id))
    .for("update");
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * All allocations of the rows an item may give a category to (posted, no category yet, named
 * with a category), in one read; the transaction row locks already keep them from changing.
 */
async function loadSeedableAllocations(
  tx: Tx,
  rows: Map<string, TransactionRow>,
  items: TransactionDetailsItem[],
) {
  const ids = new Set<string>();
  for (const item of items) {
    const row = rows.get(item.transaction);
    if (item.category && row && !row.pending && row.categoryId === null) ids.add(row.id);
  }
  const byTransaction = new Map<string, AllocationRow[]>();
  if (ids.size === 0) return byTransaction;
  const al = transactionAllocations;
  const allocations = await tx
    .select()
    .from(al)
    .where(inArray(al.transactionId, [...ids]))
    .orderBy(asc(al.createdAt), asc(al.id));
  for (const allocation of allocations) {
    const list = byTransaction.get(allocation.transactionId) ?? [];
    list.push(allocation);
    byTransaction.set(allocation.transactionId, list);
  }
  return byTransaction;
}
