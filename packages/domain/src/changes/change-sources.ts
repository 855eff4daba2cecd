import type { ChangeType } from "@allot/contract/changes/change";
import type { Tx } from "@allot/db/create-database";
import { budgets } from "@allot/db/schema/budgets";
import { changeTombstones } from "@allot/db/schema/change-tombstones";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { and, asc, eq, gt, gte, inArray, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { selectAllocationViews, toAllocationView } from "../allocations/allocation-view";
import { loadBudgetViews } from "../budgets/budget-view";
import {
  selectFundingOccurrences,
  toFundingOccurrenceView,
} from "../funding-occurrences/funding-occurrence-view";
import {
  selectInternalTransactions,
  toInternalTransactionView,
} from "../internal-transactions/internal-transaction-view";
import { selectTransactionViews, toTransactionViews } from "../transactions/transaction-view";
import type { FeedPosition } from "./change-cursor";

/** One entry of the feed, before its object is loaded. */
export interface ChangeEntry {
  changeSeq: number;
  type: ChangeType;
  id: string;
  deleted: boolean;
}

/** The feed's order: change number, then type, then id (uuids compare like their lower-case text). */
export const byFeedOrder = (a: ChangeEntry, b: ChangeEntry) =>
  a.changeSeq - b.changeSeq ||
  (a.type < b.type ? -1 : a.type > b.type ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

interface StampedTable {
  id: PgColumn;
  bankAccountId: PgColumn;
  changeSeq: PgColumn;
}

/** A table's rows of one type after `position`, in feed order (index: account, change_seq, id). */
function rowsAfter(table: StampedTable, type: ChangeType) {
  return async (tx: Tx, accountId: string, position: FeedPosition, limit: number): Promise<ChangeEntry[]> => {
    const { changeSeq: seq, id } = table;
    const after =
      position.type === undefined || type < position.type
        ? gt(seq, position.changeSeq)
        : type > position.type
          ? gte(seq, position.changeSeq)
          : sql`(${seq}, ${id}) > (${position.changeSeq}, ${position.id}::uuid)`;
    const rows = await tx
      .select({ id, changeSeq: seq })
      .from(table as unknown as typeof budgets)
      .where(and(eq(table.bankAccountId, accountId), after))
      .orderBy(asc(seq), asc(id))
      .limit(limit);
    return rows.map((row) => ({
      changeSeq: Number(row.changeSeq),
      type,
      id: String(row.id),
      deleted: false,
    }));
  };
}

/** Views of one type's objects by id, exactly as their GETs answer. */
type LoadViews = (tx: Tx, ids: string[]) => Promise<Map<string, unknown>>;

const byId = <V extends { id: string }>(views: V[]) => new Map(views.map((view) => [view.id, view]));

/** The account's own row is read by the feed itself (it is the page's snapshot of the account). */
export const LIVE_SOURCES: Record<
  Exclude<ChangeType, "bank_account">,
  { after: ReturnType<typeof rowsAfter>; load: LoadViews }
> = {
  budget: {
    after: rowsAfter(budgets, "budget"),
    load: async (tx, ids) =>
      byId(await loadBudgetViews(tx, await tx.select().from(budgets).where(inArray(budgets.id, ids)))),
  },
  transaction: {
    after: rowsAfter(transactions, "transaction"),
    load: async (tx, ids) =>
      byId(
        await toTransactionViews(tx, await selectTransactionViews(tx).where(inArray(transactions.id, ids))),
      ),
  },
  allocation: {
    after: rowsAfter(transactionAllocations, "allocation"),
    load: async (tx, ids) =>
      byId(
        (await selectAllocationViews(tx).where(inArray(transactionAllocations.id, ids))).map(
          toAllocationView,
        ),
      ),
  },
  internal_transaction: {
    after: rowsAfter(internalTransactions, "internal_transaction"),
    load: async (tx, ids) =>
      byId(
        (await selectInternalTransactions(tx).where(inArray(internalTransactions.id, ids))).map((row) =>
          toInternalTransactionView(row.row, row.currency),
        ),
      ),
  },
  funding_occurrence: {
    after: rowsAfter(fundingOccurrences, "funding_occurrence"),
    load: async (tx, ids) =>
      byId(
        (await selectFundingOccurrences(tx).where(inArray(fundingOccurrences.id, ids))).map(
          toFundingOccurrenceView,
        ),
      ),
  },
};

/** Deletions after `position`, in feed order (types compared bytewise, as JavaScript does). */
export async function tombstonesAfter(
  tx: Tx,
  accountId: string,
  position: FeedPosition,
  limit: number,
): Promise<ChangeEntry[]> {
  const t = changeTombstones;
  const type = sql`${t.objectType} collate "C"`;
  const after =
    position.type === undefined
      ? gt(t.changeSeq, position.changeSeq)
      : sql`(${t.changeSeq}, ${type}, ${t.objectId}) > (${position.changeSeq}, ${position.type} collate "C", ${position.id}::uuid)`;
  const rows = await tx
    .select({ changeSeq: t.changeSeq, type: t.objectType, id: t.objectId })
    .from(t)
    .where(and(eq(t.bankAccountId, accountId), after))
    .orderBy(asc(t.changeSeq), asc(type), asc(t.objectId))
    .limit(limit);
  return rows.map((row) => ({ ...row, type: row.type as ChangeType, deleted: true }));
}
