import type { DatabaseHandle } from "@allot/db/create-database";
import type { AccountJob } from "./account-jobs";
import { findAutoFundingAccounts } from "./auto-funding-accounts";
import type { Job } from "./jobs";
import { runAccount } from "./run-account";
import { runLockedJob } from "./run-locked-job";
import type { SchedulerRun } from "./scheduler";

export interface RunNowOptions {
  now?: Date;
  /** For account jobs: the date to run as, instead of each account's local today. */
  asOf?: string;
  onRun?: (run: SchedulerRun) => void;
}

/**
 * `pnpm cron run <job>`: the job once, now. An account job takes every auto-funding account
 * whatever its local hour, and neither reads nor writes claims (the engine is idempotent, so a
 * manual run beside the scheduler funds nothing twice); it ends with a summary run. Resolves
 * with every run; the caller decides the exit code from their statuses.
 */
export async function runJobNow(
  handle: DatabaseHandle,
  job: Job | AccountJob,
  options: RunNowOptions = {},
): Promise<SchedulerRun[]> {
  const { now = new Date(), asOf, onRun = () => {} } = options;
  const runs: SchedulerRun[] = [];
  const report = (run: SchedulerRun) => {
    runs.push(run);
    onRun(run);
  };
  if ("lockId" in job) {
    report(await runLockedJob(handle, job, now));
    return runs;
  }
  const accounts = await findAutoFundingAccounts(handle.db, now);
  let failed = 0;
  for (const { accountId, localDate } of accounts) {
    const run = await runAccount(handle.db, job, accountId, asOf ?? localDate);
    if (run.status === "failed") failed += 1;
    report(run);
  }
  report({
    job: job.name,
    status: failed > 0 ? "failed" : "done",
    result: { accounts: accounts.length, failed },
  });
  return runs;
}
