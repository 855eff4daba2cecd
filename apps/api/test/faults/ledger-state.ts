import type { Database } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { sql } from "drizzle-orm";

/** What a write of one account can change, counted: equal states mean nothing was half-written. */
export interface LedgerState {
  transactions: number;
  pending: number;
  allocations: number;
  transfers: number;
  occurrences: number;
  notifications: number;
  postedBalance: string;
  availableBalance: string;
  transactionCount: number;
  lastPostedThrough: string | null;
  /** Sum of the account's budget balances, and a digest of each one's balance, funded amount and pointer. */
  budgetTotal: string;
  budgetDigest: string;
}

export async function ledgerState(db: Database, accountId: string): Promise<LedgerState> {
  const [row] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
    select
      (select count(*)::int from transactions where bank_account_id = a.id) as transactions,
      (select count(*)::int from transactions where bank_account_id = a.id and pending) as pending,
      (select count(*)::int from transaction_allocations where bank_account_id = a.id) as allocations,
      (select count(*)::int from internal_transactions where bank_account_id = a.id) as transfers,
      (select count(*)::int from funding_occurrences where bank_account_id = a.id) as occurrences,
      (select count(*)::int from notifications where bank_account_id = a.id) as notifications,
      a.posted_balance::text as posted_balance, a.available_balance::text as available_balance,
      a.transaction_count, a.last_posted_through::text as last_posted_through,
      (select coalesce(sum(balance), 0)::text from budgets where bank_account_id = a.id) as budget_total,
      (select md5(coalesce(string_agg(id || ':' || balance || ':' || funded_amount || ':'
          || coalesce(processed_through::text, '-'), ',' order by id), ''))
        from budgets where bank_account_id = a.id) as budget_digest
    from bank_accounts a where a.id = ${accountId}`),
  );
  if (!row) throw new Error(`no account ${accountId}`);
  return {
    transactions: row.transactions as number,
    pending: row.pending as number,
    allocations: row.allocations as number,
    transfers: row.transfers as number,
    occurrences: row.occurrences as number,
    notifications: row.notifications as number,
    postedBalance: row.posted_balance as string,
    availableBalance: row.available_balance as string,
    transactionCount: row.transaction_count as number,
    lastPostedThrough: row.last_posted_through as string | null,
    budgetTotal: row.budget_total as string,
    budgetDigest: row.budget_digest as string,
  };
}

/** verifyLedger over every account in the database: each problem prefixed with its account. */
export async function ledgerProblems(db: Database): Promise<string[]> {
  const accounts = rowsOf<{ id: string }>(await db.execute(sql`select id from bank_accounts order by id`));
  const problems: string[] = [];
  for (const { id } of accounts) {
    for (const problem of await verifyLedger(db, id)) problems.push(`${id}: ${problem}`);
  }
  return problems;
}

/** How many of these transfer ids are stored. */
export async function storedTransfers(db: Database, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const list = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from internal_transactions where id in (${list})`),
  );
  return row?.n ?? 0;
}
