import type { Database } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { eq, sql } from "drizzle-orm";
import { changedByThisWrite, lockAccountForChange, stampedSet } from "../../src/ledger/change-number";
import { FROM_THE_START } from "../../src/ledger/ledger-key";
import { refreshBudgetSnapshots, refreshTransactionSnapshots } from "../../src/ledger/snapshots";

/** The rows this seeding inserted: the account's, stamped with this transaction's change number. */
const seededNow = (accountId: string) =>
  sql`t.bank_account_id = ${accountId} and ${changedByThisWrite(sql`t.change_seq`)}`;

/**
 * Fills an account with `count` transactions (the newest `pending` of them pending), each allocated
 * whole to the account's Unallocated budget, straight in SQL with generate_series: 80 s for
 * 1,000,000 rows on two busy cores, where the API would take hours (benchmarks, fault tests). The rows are exactly
 * what the API would have left behind: balances, transaction_count and every running-balance
 * snapshot.
 *
 * The snapshots are written as the rows are inserted (a running sum over the series), not by
 * updating every row after: at 1,000,000 rows the ledger's refresh rewrote both tables and
 * their indexes, 86 of 141 s. That running sum is the refresh's answer only when the seeded rows
 * are the account's only events; an account that already had transactions or transfers gets the
 * ledger's own refresh after the insert instead.
 */
export async function seedTransactions(
  db: Database,
  accountId: string,
  count: number,
  { pending = 0 }: { pending?: number } = {},
) {
  await db.transaction(async (tx) => {
    await lockAccountForChange(tx, eq(bankAccounts.id, accountId));
    const [account] = rowsOf<{ unallocated: string | null; had_events: boolean }>(
      await tx.execute(sql`
        select (select id from budgets where bank_account_id = ${accountId} and is_unallocated) as unallocated,
          exists (select from transactions where bank_account_id = ${accountId})
            or exists (select from internal_transactions where bank_account_id = ${accountId}) as had_events`),
    );
    const unallocated = account?.unallocated;
    if (!unallocated) throw new Error(`account ${accountId} has no Unallocated budget`);
    // Every row references the locked account, its budget and a row this transaction inserted: the
    // foreign-key checks (half the allocations' insert at 1,000,000 rows) can find nothing wrong.
    // Skipping them (`replica`) is for this transaction's session alone, and a superuser's to ask.
    await tx.execute(sql`
      select set_config('session_replication_role', 'replica', true) where current_setting('is_superuser') = 'on'`);
    // One row every 50 minutes back from 2026-01-01; amounts between -300.00 and 99.99, never 0.
    // The balances before the seed (`opening`) plus the running sums are each row's snapshots.
    await tx.execute(sql`
      with opening as (
        select a.posted_balance as posted, a.available_balance as available
        from bank_accounts a where a.id = ${accountId}
      ), seeded as (
        select g, d.at, a.amount, g > ${count - pending}::int as pending
        from generate_series(1, ${count}) g,
          lateral (select timestamptz '2026-01-01' - (${count} - g) * interval '50 minutes' as at) d,
          lateral (select ((g::bigint * 7919) % 40000 - 30000) / 100.0 as raw) r,
          lateral (select case when r.raw = 0 then 1.00 else r.raw end::numeric(14, 2) as amount) a
      ), running as (
        select s.*, sum(case when s.pending then 0 else s.amount end) over w as posted_through,
          sum(s.amount) over w as available_through
        from seeded s window w as (order by s.g)
      )
      insert into transactions (bank_account_id, amount, posted_date, transaction_date, transaction_type,
        pending, raw_description, description, posted_balance_snapshot, available_balance_snapshot,
        created_at, modified_at)
      select ${accountId}::uuid, r.amount, r.at, r.at, 'signature_purchase', r.pending,
        'SEEDED PURCHASE ' || r.g, 'Seeded purchase ' || r.g, o.posted + r.posted_through,
        o.available + r.available_through, r.at + interval '1 day', r.at + interval '1 day'
      from running r, opening o`);
    // The Unallocated budget's balance after each allocation moves with the account's available one.
    // Inserted in the ledger's order, as the API writes them: a page's allocations share heap pages.
    await tx.execute(sql`
      with opening as (
        select a.available_balance as available, b.balance as budget
        from bank_accounts a, budgets b where a.id = ${accountId} and b.id = ${unallocated}
      )
      insert into transaction_allocations (transaction_id, bank_account_id, budget_id, amount, budget_balance,
        created_at, modified_at)
      select t.id, t.bank_account_id, ${unallocated}::uuid, t.amount,
        o.budget + (t.available_balance_snapshot - o.available), t.created_at, t.created_at
      from transactions t, opening o
      where ${seededNow(accountId)}
      order by t.transaction_date, t.created_at, t.id`);
    await tx.execute(sql`
      with totals as (
        select coalesce(sum(amount) filter (where not pending), 0) as posted, coalesce(sum(amount), 0) as total,
          count(*)::int as n
        from transactions t where ${seededNow(accountId)}
      ), account as (
        update bank_accounts a set ${stampedSet(
          sql`posted_balance = a.posted_balance + totals.posted`,
          sql`available_balance = a.available_balance + totals.total`,
          sql`transaction_count = a.transaction_count + totals.n`,
        )}
        from totals where a.id = ${accountId}
        returning 1
      )
      update budgets b set ${stampedSet(sql`balance = b.balance + totals.total`)}
      from totals where b.id = ${unallocated}`);
    if (account.had_events) {
      await refreshTransactionSnapshots(tx, accountId, FROM_THE_START);
      await refreshBudgetSnapshots(tx, accountId, [unallocated], FROM_THE_START);
    }
  });
}
