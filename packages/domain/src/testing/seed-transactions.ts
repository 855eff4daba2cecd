import type { Database } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { eq, sql } from "drizzle-orm";
import { changeStamp, lockAccountForChange } from "../changes/change-number";
import { FROM_THE_START } from "../ledger/ledger-key";
import { refreshBudgetSnapshots, refreshTransactionSnapshots } from "../ledger/snapshots";

/**
 * Fills an account with `count` transactions (the newest `pending` of them pending), each allocated
 * whole to the account's Unallocated budget, straight in SQL with generate_series: seconds for
 * 100,000 rows where the API would take minutes (benchmarks, fault tests). The balances are then
 * moved once and every running-balance snapshot computed by the ledger's own refresh, so the rows
 * are exactly what the API would have left behind.
 */
export async function seedTransactions(
  db: Database,
  accountId: string,
  count: number,
  { pending = 0 }: { pending?: number } = {},
) {
  await db.transaction(async (tx) => {
    await lockAccountForChange(tx, eq(bankAccounts.id, accountId));
    const [unallocated] = rowsOf<{ id: string }>(
      await tx.execute(sql`select id from budgets where bank_account_id = ${accountId} and is_unallocated`),
    );
    if (!unallocated) throw new Error(`account ${accountId} has no Unallocated budget`);
    // One row every 50 minutes back from 2026-01-01; amounts between -300.00 and 99.99, never 0.
    await tx.execute(sql`
      insert into transactions (bank_account_id, amount, posted_date, transaction_date, transaction_type,
        pending, raw_description, description, created_at, modified_at)
      select ${accountId}::uuid, a.amount, d.at, d.at, 'signature_purchase', g > ${count - pending}::int,
        'SEEDED PURCHASE ' || g, 'Seeded purchase ' || g, d.at + interval '1 day', d.at + interval '1 day'
      from generate_series(1, ${count}) g,
        lateral (select timestamptz '2026-01-01' - (${count} - g) * interval '50 minutes' as at) d,
        lateral (select ((g * 7919) % 40000 - 30000) / 100.0 as raw) r,
        lateral (select case when r.raw = 0 then 1.00 else r.raw end::numeric(14, 2) as amount) a`);
    await tx.execute(sql`
      insert into transaction_allocations (transaction_id, bank_account_id, budget_id, amount, created_at,
        modified_at)
      select t.id, t.bank_account_id, ${unallocated.id}::uuid, t.amount, t.created_at, t.created_at
      from transactions t where t.bank_account_id = ${accountId}`);
    await tx.execute(sql`
      with totals as (
        select coalesce(sum(amount) filter (where not pending), 0) as posted, coalesce(sum(amount), 0) as total,
          count(*)::int as n
        from transactions where bank_account_id = ${accountId}
      ), account as (
        update bank_accounts a set posted_balance = a.posted_balance + totals.posted,
          available_balance = a.available_balance + totals.total, transaction_count = totals.n,
          change_seq = ${changeStamp}
        from totals where a.id = ${accountId}
        returning 1
      )
      update budgets b set balance = b.balance + totals.total, change_seq = ${changeStamp}
      from totals where b.id = ${unallocated.id}`);
    await refreshTransactionSnapshots(tx, accountId, FROM_THE_START);
    await refreshBudgetSnapshots(tx, accountId, [unallocated.id], FROM_THE_START);
  });
}
