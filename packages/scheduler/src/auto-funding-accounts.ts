import type { Database } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { users } from "@allot/db/schema/users";
import { firstOwnerTimeZone } from "@allot/domain/calendar/account-time-zone";
import { localDate, localHour } from "@allot/domain/calendar/local-days";
import { type SQL, sql } from "drizzle-orm";

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
 * Each stored time zone's local date and hour at `now`, read by the same time-zone library as
 * every other day of the account (never PostgreSQL's own zone files, which may be another
 * release): a VALUES list of the few zones users have, UTC for a missing or unknown one.
 */
async function zoneClocks(db: Database, now: Date): Promise<SQL> {
  const zones = rowsOf<{ timezone: string }>(
    await db.execute(sql`select distinct ${users.timezone} as timezone from ${users}`),
  ).map((row) => row.timezone);
  const rows = [...new Set([...zones, "UTC"])].map(
    (zone) => sql`(${zone}, ${localDate(now, zone)}::date, ${localHour(now, zone)}::int)`,
  );
  return sql`(values ${sql.join(rows, sql`, `)}) as c(zone, local_date, hour)`;
}

/**
 * The accounts with auto_funding_enabled and their local date at `now`, in two queries. An
 * account's clock is its first owner's (oldest ownership) time zone: the engine's calendar.
 */
export async function findAutoFundingAccounts(
  db: Database,
  now: Date,
  filter: AccountFilter = {},
): Promise<LocalAccount[]> {
  const hourCondition = filter.fromHour === undefined ? sql`` : sql`and c.hour >= ${filter.fromHour}`;
  const claimCondition =
    filter.unclaimedBy === undefined
      ? sql``
      : sql`and not exists (
          select 1 from scheduled_runs r
          where r.job = ${filter.unclaimedBy} and r.bank_account_id = owners.id and r.run_date = c.local_date
        )`;
  const result = await db.execute(sql`
    with owners as (
      select ${bankAccounts.id} as id, coalesce(${firstOwnerTimeZone}, 'UTC') as timezone
      from ${bankAccounts}
      where ${bankAccounts.autoFundingEnabled}
    )
    select owners.id::text as account_id, to_char(c.local_date, 'YYYY-MM-DD') as local_date
    from owners
    join ${await zoneClocks(db, now)} on c.zone = owners.timezone
    where true ${hourCondition} ${claimCondition}
    order by owners.id
  `);
  return rowsOf<{ account_id: string; local_date: string }>(result).map((row) => ({
    accountId: row.account_id,
    localDate: row.local_date,
  }));
}
