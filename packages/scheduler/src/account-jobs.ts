import type { Database } from "@allot/db/create-database";
import type { AccountJobName } from "@allot/db/schema/scheduled-runs";
import type { EventKind } from "@allot/domain/funding/funding-budget";
import { type FundingRunResult, runAccountFunding } from "@allot/domain/funding/run-funding";
import { internalContext } from "@allot/domain/shared/use-case-context";

/** A daily job per auto-funding account, due from a local hour of the first owner's clock. */
export interface AccountJob {
  /** What its claims in scheduled_runs are named. */
  name: AccountJobName;
  /** Local hour (0–23) from which the account is due, once per local date. */
  hour: number;
  run(db: Database, accountId: string, asOf: string): Promise<FundingRunResult>;
}

/** A job that runs one kind of the account's due funding events at its local hour. */
const fundingJob = (name: AccountJobName, hour: number, kind: EventKind): AccountJob => ({
  name,
  hour,
  run: (db, accountId, asOf) =>
    runAccountFunding(internalContext(db, "scheduler"), accountId, { asOf, kinds: [kind], actorId: null }),
});

// docs/spec/operations.md: fund events at 23:00 (after the day's spending), recurrences at 03:00.
export const accountJobs: AccountJob[] = [fundingJob("fund", 23, "fund"), fundingJob("recur", 3, "recur")];
