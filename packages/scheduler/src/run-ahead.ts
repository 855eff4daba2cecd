import type { Database } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { sql } from "drizzle-orm";
import type { AccountJob } from "./account-jobs";
import { findAutoFundingAccounts } from "./auto-funding-accounts";

/** What `pnpm cron run fund|recur --as-of DAY` would do ahead of the accounts' own today. */
export interface RunAhead {
  /** The auto-funding accounts for which DAY is after their local today. */
  accounts: number;
  /** Their budgets (not archived) with a schedule of the job's kind. */
  budgets: number;
  /** Days ahead: the least and the most (time zones put accounts on different days). */
  fewestDays: number;
  mostDays: number;
  /** Their local todays, earliest and latest. */
  earliestToday: string;
  latestToday: string;
}

const DAY_MS = 86_400_000;
const SLICE = 1_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/**
 * How far ahead of the auto-funding accounts' today `asOf` runs an account job, in two queries;
 * null when it is no account's future (today and earlier days only catch up, decision 0057).
 */
export async function runAheadOf(
  db: Database,
  job: AccountJob,
  asOf: string,
  now: Date,
): Promise<RunAhead | null> {
  const ahead = (await findAutoFundingAccounts(db, now)).filter(({ localDate }) => localDate < asOf);
  if (ahead.length === 0) return null;
  const todays = ahead.map(({ localDate }) => localDate).sort();
  const earliestToday = todays[0] as string;
  const latestToday = todays[todays.length - 1] as string;
  const scheduled = job.name === "recur" ? sql`recurrence_schedule is not null` : sql`funding_schedule <> ''`;
  let budgets = 0;
  // In slices: a statement's parameters are bounded (65,535 in PostgreSQL).
  for (let start = 0; start < ahead.length; start += SLICE) {
    const ids = ahead.slice(start, start + SLICE).map(({ accountId }) => sql`${accountId}::uuid`);
    const [counted] = rowsOf<{ n: number }>(
      await db.execute(sql`
        select count(*)::int as n from budgets
        where not archived and ${scheduled} and bank_account_id in (${sql.join(ids, sql`, `)})`),
    );
    budgets += counted?.n ?? 0;
  }
  return {
    accounts: ahead.length,
    budgets,
    fewestDays: daysBetween(latestToday, asOf),
    mostDays: daysBetween(earliestToday, asOf),
    earliestToday,
    latestToday,
  };
}
