import type { Tx } from "@allot/db/create-database";
import { type SQL, sql } from "drizzle-orm";
import { stampedSet, stampTransactionsOf } from "./change-number";
import { FROM_THE_START, type LedgerKey } from "./ledger-key";

/*
 * Running-balance snapshots. A row's snapshot is the balance just after it: the current balance
 * minus everything that comes after it. That sum only involves later rows, so after a change at
 * key K only rows at or after K need recomputing — an insert of the newest row touches one row,
 * an older insert, edit or delete touches the rows from that point on.
 */

const fromKey = (at: SQL, createdAt: SQL, key: LedgerKey) =>
  key.at.getTime() === FROM_THE_START.at.getTime()
    ? sql``
    : sql`and (${at}, ${createdAt}) >= (${key.at.toISOString()}::timestamptz, ${key.createdAt.toISOString()}::timestamptz)`;

/** Each transaction's bank_account_posted_balance / bank_account_available_balance. */
export async function refreshTransactionSnapshots(tx: Tx, accountId: string, from: LedgerKey) {
  await tx.execute(sql`
    with later as (
      select t.id,
        coalesce(sum(case when t.pending then 0 else t.amount end) over w, 0) as posted_after,
        coalesce(sum(t.amount) over w, 0) as available_after
      from transactions t
      where t.bank_account_id = ${accountId} ${fromKey(sql`t.transaction_date`, sql`t.created_at`, from)}
      window w as (order by t.transaction_date desc, t.created_at desc, t.id desc
                   rows between unbounded preceding and 1 preceding)
    )
    update transactions t
    set ${stampedSet(
      sql`posted_balance_snapshot = a.posted_balance - later.posted_after`,
      sql`available_balance_snapshot = a.available_balance - later.available_after`,
    )}
    from later, bank_accounts a
    where t.id = later.id and a.id = ${accountId}
      and (t.posted_balance_snapshot <> a.posted_balance - later.posted_after
        or t.available_balance_snapshot <> a.available_balance - later.available_after)`);
}

/** Each allocation's budget_balance and each transfer's src/dst_budget_balance, for these budgets. */
export async function refreshBudgetSnapshots(
  tx: Tx,
  accountId: string,
  budgetIds: string[],
  from: LedgerKey,
) {
  if (budgetIds.length === 0) return;
  const ids = sql.join(
    [...new Set(budgetIds)].map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await tx.execute(sql`
    with events as (
      select 'a' as kind, al.id, al.budget_id, al.amount as delta,
             t.transaction_date as at, t.created_at as c1, al.created_at as c2
      from transactions t
      -- Each transaction's own allocations by index, fenced by offset 0 (and the budget tested
      -- outside the fence): with statistics that do not know the account yet (a first big
      -- import), a plain join was planned as a nested loop over every allocation of the budget for
      -- each transaction, quadratic.
      cross join lateral (
        select al.id, al.budget_id, al.amount, al.created_at from transaction_allocations al
        where al.transaction_id = t.id offset 0
      ) al
      where t.bank_account_id = ${accountId} and al.budget_id in (${ids})
        ${fromKey(sql`t.transaction_date`, sql`t.created_at`, from)}
      union all
      select 's', it.id, it.src_budget_id, -it.amount, it.effective_date, it.created_at, it.created_at
      from internal_transactions it
      where it.bank_account_id = ${accountId} and it.src_budget_id in (${ids})
        ${fromKey(sql`it.effective_date`, sql`it.created_at`, from)}
      union all
      select 'd', it.id, it.dst_budget_id, it.amount, it.effective_date, it.created_at, it.created_at
      from internal_transactions it
      where it.bank_account_id = ${accountId} and it.dst_budget_id in (${ids})
        ${fromKey(sql`it.effective_date`, sql`it.created_at`, from)}
    ),
    running as (
      select e.kind, e.id,
        b.balance - coalesce(sum(e.delta) over (
          partition by e.budget_id order by e.at desc, e.c1 desc, e.c2 desc, e.id desc, e.kind desc
          rows between unbounded preceding and 1 preceding), 0) as balance_after
      from events e join budgets b on b.id = e.budget_id
    ),
    transfers as (
      select id,
        max(case when kind = 's' then balance_after end) as src_after,
        max(case when kind = 'd' then balance_after end) as dst_after
      from running where kind <> 'a' group by id
    ),
    allocations_done as (
      update transaction_allocations al set ${stampedSet(sql`budget_balance = r.balance_after`)}
      from running r
      where r.kind = 'a' and al.id = r.id and al.budget_balance <> r.balance_after
      returning al.transaction_id
    ),
    embedding_done as (${stampTransactionsOf(sql`allocations_done`)} returning 1)
    update internal_transactions it
    set ${stampedSet(
      sql`src_budget_balance = coalesce(tr.src_after, it.src_budget_balance)`,
      sql`dst_budget_balance = coalesce(tr.dst_after, it.dst_budget_balance)`,
    )}
    from transfers tr
    where it.id = tr.id
      and (it.src_budget_balance <> coalesce(tr.src_after, it.src_budget_balance)
        or it.dst_budget_balance <> coalesce(tr.dst_after, it.dst_budget_balance))`);
}
