import type { ChangeType } from "@allot/contract/changes/change";
import type { Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { changeTombstones } from "@allot/db/schema/change-tombstones";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";
import { internalTransactions } from "@allot/db/schema/internal-transactions";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactions } from "@allot/db/schema/transactions";
import { and, asc, eq, gt, gte, inArray, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { selectAllocationViews, toAllocationView } from "../allocations/allocation-view";
import type { AttachmentLinks } from "../attachments/attachment-links";
import { loadBankAccountViews } from "../bank-accounts/bank-account-view";
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

/** The tables whose rows the feed carries, each with its change number. */
type FeedTable =
  | typeof bankAccounts
  | typeof budgets
  | typeof transactions
  | typeof transactionAllocations
  | typeof internalTransactions
  | typeof fundingOccurrences;

/**
 * A table's rows of one type after `position`, in feed order, by the index (account, change_seq,
 * id); `account` is the column naming the account (the account's own id for bank_accounts).
 */
function rowsAfter(table: FeedTable, type: ChangeType, account: PgColumn) {
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
      .from(table)
      .where(and(eq(account, accountId), after))
      .orderBy(asc(seq), asc(id))
      .limit(limit);
    return rows.map((row) => ({ ...row, type, deleted: false }));
  };
}

/** Views of one type's objects by id, exactly as their GETs answer. */
type LoadViews = (tx: Tx, ids: string[], links: AttachmentLinks) => Promise<Map<string, unknown>>;

const byId = <V extends { id: string }>(views: V[]) => new Map(views.map((view) => [view.id, view]));

/** Where the feed finds each type's changed rows, and how it loads their views. */
export const FEED_SOURCES: Record<ChangeType, { after: ReturnType<typeof rowsAfter>; load: LoadViews }> = {
  bank_account: {
    after: rowsAfter(bankAccounts, "bank_account", bankAccounts.id),
    load: async (tx, ids) =>
      byId(
        await loadBankAccountViews(
          tx,
          await tx.select().from(bankAccounts).where(inArray(bankAccounts.id, ids)),
        ),
      ),
  },
  budget: {
    after: rowsAfter(budgets, "budget", budgets.bankAccountId),
    load: async (tx, ids) =>
      byId(await loadBudgetViews(tx, await tx.select().from(budgets).where(inArray(budgets.id, ids)))),
  },
  transaction: {
    after: rowsAfter(transactions, "transaction", transactions.bankAccountId),
    load: async (tx, ids, links) =>
      byId(
        await toTransactionViews(
          tx,
          await selectTransactionViews(tx).where(inArray(transactions.id, ids)),
          links,
        ),
      ),
  },
  allocation: {
    after: rowsAfter(transactionAllocations, "allocation", transactionAllocations.bankAccountId),
    load: async (tx, ids) =>
      byId(
        (await selectAllocationViews(tx).where(inArray(transactionAllocations.id, ids))).map(
          toAllocationView,
        ),
      ),
  },
  internal_transaction: {
    after: rowsAfter(internalTransactions, "internal_transaction", internalTransactions.bankAccountId),
    load: async (tx, ids) =>
      byId(
        (await selectInternalTransactions(tx).where(inArray(internalTransactions.id, ids))).map((row) =>
          toInternalTransactionView(row.row, row.currency),
        ),
      ),
  },
  funding_occurrence: {
    after: rowsAfter(fundingOccurrences, "funding_occurrence", fundingOccurrences.bankAccountId),
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
  return rows.map((row) => ({ ...row, deleted: true }));
}
