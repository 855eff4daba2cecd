import type { Tx } from "@allot/db/create-database";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { stampEachAccount } from "../ledger/change-number";
import { type CategoryRow, formatFullName, visibleCategoryCondition } from "./visible-categories";

/** True when the user can see a category other than `category` with the same full name, any case. */
async function namedElsewhere(tx: Tx, userId: number, category: CategoryRow): Promise<boolean> {
  const c = transactionCategories;
  const [row] = await tx
    .select({ id: c.id })
    .from(c)
    .where(
      and(
        ne(c.id, category.id),
        sql`lower(${c.group}) = lower(${category.group})`,
        sql`lower(${c.name}) = lower(${category.name})`,
        visibleCategoryCondition(userId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Carries a rename (`after`: the new full name) or a delete (`after` null) of a user's category
 * into the auto_spend lists that name it — they store names, not ids. Call in the transaction that
 * renames or deletes it, with the category as it was. Looked at: the budgets of every account
 * owned by the category's owner or by someone sharing an account with the owner (everyone who
 * could see it, so could list it). A budget keeps the old name when one of its account's owners
 * still sees another category of that name (a global, or a co-owner's namesake): it may mean that.
 */
export async function followCategoryInAutoSpend(tx: Tx, before: CategoryRow, after: string | null) {
  if (before.ownerId === null) return;
  const name = formatFullName(before.group, before.name);
  const me = alias(bankAccountOwners, "owner_me");
  const peer = alias(bankAccountOwners, "owner_peer");
  const peers = tx
    .select({ userId: peer.userId })
    .from(peer)
    .innerJoin(me, eq(me.bankAccountId, peer.bankAccountId))
    .where(eq(me.userId, before.ownerId));
  const accounts = tx
    .select({ id: bankAccountOwners.bankAccountId })
    .from(bankAccountOwners)
    .where(inArray(bankAccountOwners.userId, peers));
  const listing = await tx
    .select({ id: budgets.id, accountId: budgets.bankAccountId })
    .from(budgets)
    .where(and(sql`${name} = any(${budgets.autoSpend})`, inArray(budgets.bankAccountId, accounts)));
  if (listing.length === 0) return;

  const owners = await tx
    .select()
    .from(bankAccountOwners)
    .where(
      inArray(
        bankAccountOwners.bankAccountId,
        listing.map((budget) => budget.accountId),
      ),
    );
  const seesAnother = new Map<number, boolean>();
  const keeps = new Map<string, boolean>();
  for (const { bankAccountId, userId } of owners) {
    if (keeps.get(bankAccountId)) continue;
    if (!seesAnother.has(userId)) seesAnother.set(userId, await namedElsewhere(tx, userId, before));
    keeps.set(bankAccountId, seesAnother.get(userId) === true);
  }
  const changing = listing.filter((budget) => !keeps.get(budget.accountId));
  // Budgets of several accounts: each account's stamped with that account's own change number.
  await stampEachAccount(
    tx,
    changing.map((budget) => budget.accountId),
    (accountId) =>
      tx
        .update(budgets)
        .set({
          autoSpend:
            after === null
              ? sql`array_remove(${budgets.autoSpend}, ${name})`
              : // A list that already holds the new name just loses the old one: entries stay unique.
                sql`case when ${after} = any(${budgets.autoSpend}) then array_remove(${budgets.autoSpend}, ${name})
                  else array_replace(${budgets.autoSpend}, ${name}, ${after}) end`,
        })
        .where(
          and(
            eq(budgets.bankAccountId, accountId),
            inArray(
              budgets.id,
              changing.map((budget) => budget.id),
            ),
            sql`${name} = any(${budgets.autoSpend})`,
          ),
        ),
  );
}
