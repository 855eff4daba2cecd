import type { Database, Tx } from "@allot/db/create-database";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { transactionAllocations } from "@allot/db/schema/transaction-allocations";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { transactions } from "@allot/db/schema/transactions";
import { and, asc, eq, exists, inArray, isNotNull, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import { alias, QueryBuilder } from "drizzle-orm/pg-core";

export type CategoryRow = typeof transactionCategories.$inferSelect;

export interface CategoryName {
  group: string;
  name: string;
  /** `{group} : {name}`, the canonical text stored in auto_spend. */
  fullName: string;
}

/** The wire TransactionCategory. */
export interface CategoryView {
  id: string;
  group: string;
  name: string;
  full_name: string;
  owner: string | null;
  archived: boolean;
  created_at: string;
  modified_at: string;
}

const qb = new QueryBuilder();
// The caller's own ownership rows, joined against the other owners of the same accounts.
const mine = alias(bankAccountOwners, "visible_mine");

/** Trims and collapses runs of whitespace to one space. */
export const normaliseCategoryPart = (text: string): string => text.trim().replace(/\s+/g, " ");

export const formatFullName = (group: string, name: string): string => `${group} : ${name}`;

/**
 * "group:name" split on the first colon, each side trimmed and inner whitespace collapsed; without a
 * colon the group and the name are the same text. Empty parts come back empty: callers validate.
 */
export function normaliseCategoryName(text: string): CategoryName {
  const colon = text.indexOf(":");
  const group = normaliseCategoryPart(colon === -1 ? text : text.slice(0, colon));
  const name = colon === -1 ? group : normaliseCategoryPart(text.slice(colon + 1));
  return { group, name, fullName: formatFullName(group, name) };
}

/** Users who co-own at least one bank account with the user (the user included). */
const coOwnerIds = (userId: number) =>
  qb
    .select({ userId: bankAccountOwners.userId })
    .from(bankAccountOwners)
    .innerJoin(mine, eq(mine.bankAccountId, bankAccountOwners.bankAccountId))
    .where(eq(mine.userId, userId));

/**
 * Condition on `transaction_categories`: visible to the user. Visible are global categories, the
 * user's own, those of users the user co-owns an account with, and any category a transaction or
 * allocation of one of the user's accounts still references (so a category stays readable after the
 * sharing that brought it ended). The reference checks run only for other people's categories.
 */
export function visibleCategoryCondition(userId: number): SQL {
  const c = transactionCategories;
  const referencedByTransaction = exists(
    qb
      .select({ one: sql`1` })
      .from(transactions)
      .innerJoin(mine, eq(mine.bankAccountId, transactions.bankAccountId))
      .where(and(eq(mine.userId, userId), eq(transactions.categoryId, c.id))),
  );
  const referencedByAllocation = exists(
    qb
      .select({ one: sql`1` })
      .from(transactionAllocations)
      .innerJoin(mine, eq(mine.bankAccountId, transactionAllocations.bankAccountId))
      .where(and(eq(mine.userId, userId), eq(transactionAllocations.categoryId, c.id))),
  );
  return or(
    isNull(c.ownerId),
    eq(c.ownerId, userId),
    inArray(c.ownerId, coOwnerIds(userId)),
    and(isNotNull(c.ownerId), ne(c.ownerId, userId), or(referencedByTransaction, referencedByAllocation)),
  ) as SQL;
}

/**
 * The category if the user can see it, else null. `id` must be a UUID (the contract checks).
 * `lock: "key share"` (inside a transaction) holds the row until the transaction ends, as the
 * foreign key of a row about to reference it would: a concurrent delete waits, or has already
 * removed it and the lookup finds nothing.
 */
export async function findVisibleCategory(
  db: Database | Tx,
  userId: number,
  id: string,
  options: { lock?: "key share" } = {},
): Promise<CategoryRow | null> {
  const query = db
    .select()
    .from(transactionCategories)
    .where(and(eq(transactionCategories.id, id), visibleCategoryCondition(userId)))
    .limit(1);
  const [row] = await (options.lock ? query.for(options.lock, { of: transactionCategories }) : query);
  return row ?? null;
}

/**
 * The visible category a "group : name" text names, compared case-insensitively after
 * normaliseCategoryName (so "food & drink:groceries" finds "Food & Drink : Groceries"); null when
 * none. Archived categories match too (callers decide whether one may be referenced anew), but an
 * active one wins over an archived namesake. Otherwise the user's own wins, then a global one
 * (stable for everyone), then another user's (oldest first) — a co-owner's category can stop being
 * visible when sharing ends, so it is the last choice.
 */
export async function findVisibleCategoryByFullName(
  db: Database | Tx,
  userId: number,
  text: string,
): Promise<CategoryRow | null> {
  const { group, name } = normaliseCategoryName(text);
  if (!group || !name) return null;
  const c = transactionCategories;
  const [row] = await db
    .select()
    .from(c)
    .where(
      and(
        // lower() on both sides: PGlite's C locale lowers ASCII only, JavaScript lowers everything.
        sql`lower(${c.group}) = lower(${group})`,
        sql`lower(${c.name}) = lower(${name})`,
        visibleCategoryCondition(userId),
      ),
    )
    .orderBy(
      asc(c.archived),
      sql`case when ${c.ownerId} = ${userId} then 0 when ${c.ownerId} is null then 1 else 2 end`,
      asc(c.createdAt),
      asc(c.id),
    )
    .limit(1);
  return row ?? null;
}

/** The wire TransactionCategory; `ownerUsername` is null for a global category. */
export const toCategoryView = (row: CategoryRow, ownerUsername: string | null): CategoryView => ({
  id: row.id,
  group: row.group,
  name: row.name,
  full_name: formatFullName(row.group, row.name),
  owner: ownerUsername,
  archived: row.archived,
  created_at: row.createdAt.toISOString(),
  modified_at: row.modifiedAt.toISOString(),
});
