import type { Database } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { firstOwnerTimeZone } from "@allot/domain/budgets/account-today";
import { rowsOf } from "@allot/domain/shared/rows-of";
import { sql } from "drizzle-orm";

export interface LocalAccount {
  accountId: string;
  /** YYYY-MM-DD at `now` in the first owner's time zone. */
  localDate: string;
}

export interface AccountFilter {
  /** Only accounts whose local time is at or after this hour (0–23). */
  fromHour?: number;
  /** Only accounts this job has not claimed for their local date (scheduled_runs). */
  unclaimedBy?: string;
}

/**
 * The accounts with auto_funding_enabled and their local date at `now`, in one query. An
 * account's clock is its first owner's (oldest ownership) time zone: the engine's calendar.
 * `at time zone` throws on a name PostgreSQL does not know, and users.timezone may hold one, so
 * the name is looked up in pg_timezone_names first (case-insensitively, as the server reads
 * names) and UTC stands in for a missing or unknown zone. That view reads the zone files (~50 ms,
 * PGlite too): a cost per query, not per account.
 */
export async function findAutoFundingAccounts(
  db: Database,
  now: Date,
  filter: AccountFilter = {},
): Promise<LocalAccount[]> {
  const hourCondition =
    filter.fromHour === undefined ? sql`` : sql`and extract(hour from l.at) >= ${filter.fromHour}`;
  const claimCondition =
    filter.unclaimedBy === undefined
      ? sql``
      : sql`and not exists (
          select 1 from scheduled_runs r
          where r.job = ${filter.unclaimedBy} and r.bank_account_id = l.id and r.run_date = l.at::date
        )`;
  const result = await db.execute(sql`
    with zones as (
      select distinct on (lower(name)) name, lower(name) as key
      from pg_timezone_names
      order by lower(name), name
    ),
    owners as (
      select ${bankAccounts.id} as id, ${firstOwnerTimeZone} as timezone
      from ${bankAccounts}
      where ${bankAccounts.autoFundingEnabled}
    ),
    l as (
      select owners.id, (${now.toISOString()}::timestamptz at time zone coalesce(z.name, 'UTC')) as at
      from owners
      left join zones z on z.key = lower(owners.timezone)
    )
    select l.id::text as account_id, to_char(l.at, 'YYYY-MM-DD') as local_date
    from l
    where true ${hourCondition} ${claimCondition}
    order by l.id
  `);
  return rowsOf<{ account_id: string; local_date: string }>(result).map((row) => ({
    accountId: row.account_id,
    localDate: row.local_date,
  }));
}
