import type { Database } from "@allot/db/create-database";
import { type AccountJobName, scheduledRuns } from "@allot/db/schema/scheduled-runs";
import { and, eq } from "drizzle-orm";

/**
 * Claims (job, account, local date) for this process: true when the row is new. Of several cron
 * processes finding the same account due, exactly one gets it (the primary key decides).
 */
export async function claimRun(db: Database, job: AccountJobName, accountId: string, runDate: string) {
  const claimed = await db
    .insert(scheduledRuns)
    .values({ job, bankAccountId: accountId, runDate })
    .onConflictDoNothing()
    .returning({ job: scheduledRuns.job });
  return claimed.length > 0;
}

/** Gives a claim back after a failed run, so a later tick that day may try the account again. */
export async function releaseRun(db: Database, job: AccountJobName, accountId: string, runDate: string) {
  await db
    .delete(scheduledRuns)
    .where(
      and(
        eq(scheduledRuns.job, job),
        eq(scheduledRuns.bankAccountId, accountId),
        eq(scheduledRuns.runDate, runDate),
      ),
    );
}
