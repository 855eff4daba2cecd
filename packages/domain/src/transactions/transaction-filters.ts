import { toMoney } from "@allot/contract/money";
import type { Database, Tx } from "@allot/db/create-database";
import { budgets } from "@allot/db/schema/budgets";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { transactions } from "@allot/db/schema/transactions";
import { and, eq, exists, gte, isNotNull, isNull, lte, not, or, type SQL, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import { inOwnedAccounts } from "../account-access/find-owned-account";
import { accountDayRanges } from "../calendar/account-day-range";
import { normaliseCategoryPart } from "../categories/visible-categories";
import { ValidationFailed } from "../shared/errors";

export interface TransactionFilters {
  bank_account?: string;
  budget?: string;
  category?: string;
  category_group?: string;
  merchant_category_code?: string;
  merchant_city?: string;
  merchant_intermediary?: string;
  merchant_name?: string;
  merchant_region?: string;
  virtual_card_last4?: string;
  /** Decimal texts, compared as numeric by the database (never as floats). */
  amount_min?: string;
  amount_max?: string;
  date_from?: string;
  date_to?: string;
  posted_date_from?: string;
  posted_date_to?: string;
  has_details?: boolean;
  pending?: boolean;
  unallocated?: boolean;
  uncategorized?: boolean;
  transaction_type?: string;
  search?: string;
}

const qb = new QueryBuilder();
const t = transactions;
const al = transactionAllocations;

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
const contains = (text: string) => `%${escapeLike(text)}%`;

const allocationWhere = (condition: SQL) =>
  exists(
    qb
      .select({ one: sql`1` })
      .from(al)
      .where(and(eq(al.transactionId, t.id), condition)),
  );

/** An allocation to a budget other than the account's Unallocated one. */
const allocatedToABudget = exists(
  qb
    .select({ one: sql`1` })
    .from(al)
    .innerJoin(budgets, eq(budgets.id, al.budgetId))
    .where(and(eq(al.transactionId, t.id), eq(budgets.isUnallocated, false))),
);

const categoryInGroup = (group: string) =>
  exists(
    qb
      .select({ one: sql`1` })
      .from(transactionCategories)
      .where(
        and(
          eq(transactionCategories.id, t.categoryId),
          sql`lower(${transactionCategories.group}) = lower(${normaliseCategoryPart(group)})`,
        ),
      ),
  );

/**
 * The WHERE of the transaction list: the caller's accounts, then every filter given. Category
 * filters read the transaction's own category (allocations copy it); dates are days of each row's
 * account; `transaction_type=` (empty) does not filter. An amount range is inclusive at both ends;
 * one whose minimum is above its maximum is refused rather than answered empty (decision 0058).
 */
export async function transactionListCondition(db: Database | Tx, userId: number, f: TransactionFilters) {
  if (f.amount_min !== undefined && f.amount_max !== undefined && toMoney(f.amount_min).gt(f.amount_max))
    throw ValidationFailed.on("amount_max", "Must not be below amount_min.");
  const search = f.search?.trim();
  const days = await accountDayRanges(db, userId, f.bank_account, [
    f.date_from,
    f.date_to,
    f.posted_date_from,
    f.posted_date_to,
  ]);
  return and(
    inOwnedAccounts(db, t.bankAccountId, userId),
    f.bank_account ? eq(t.bankAccountId, f.bank_account) : undefined,
    f.budget ? allocationWhere(eq(al.budgetId, f.budget)) : undefined,
    f.category ? eq(t.categoryId, f.category) : undefined,
    f.category_group !== undefined ? categoryInGroup(f.category_group) : undefined,
    f.merchant_category_code !== undefined
      ? eq(t.merchantCategoryCode, f.merchant_category_code.trim())
      : undefined,
    f.merchant_city !== undefined
      ? sql`lower(${t.merchantCity}) = lower(${f.merchant_city.trim()})`
      : undefined,
    f.merchant_region !== undefined
      ? sql`lower(${t.merchantRegion}) = lower(${f.merchant_region.trim()})`
      : undefined,
    f.merchant_name !== undefined
      ? sql`${t.merchantName} ilike ${contains(f.merchant_name.trim())}`
      : undefined,
    f.merchant_intermediary !== undefined
      ? sql`${t.merchantIntermediary} ilike ${contains(f.merchant_intermediary.trim())}`
      : undefined,
    f.virtual_card_last4 !== undefined
      ? sql`${t.virtualCardNumber} like ${`%${escapeLike(f.virtual_card_last4)}`}`
      : undefined,
    f.amount_min !== undefined ? gte(t.amount, f.amount_min) : undefined,
    f.amount_max !== undefined ? lte(t.amount, f.amount_max) : undefined,
    days.range(t.transactionDate, t.bankAccountId, f.date_from, f.date_to),
    days.range(t.postedDate, t.bankAccountId, f.posted_date_from, f.posted_date_to),
    f.has_details === undefined ? undefined : f.has_details ? isNotNull(t.details) : isNull(t.details),
    f.pending === undefined ? undefined : eq(t.pending, f.pending),
    f.unallocated === undefined ? undefined : f.unallocated ? not(allocatedToABudget) : allocatedToABudget,
    f.uncategorized === undefined
      ? undefined
      : f.uncategorized
        ? isNull(t.categoryId)
        : isNotNull(t.categoryId),
    f.transaction_type ? eq(t.transactionType, f.transaction_type) : undefined,
    search
      ? or(
          sql`${t.description} ilike ${contains(search)}`,
          sql`${t.rawDescription} ilike ${contains(search)}`,
          sql`${t.party} ilike ${contains(search)}`,
        )
      : undefined,
  );
}
