import type { DatabaseHandle } from "@allot/db/create-database";
import type { AccountJob } from "./account-jobs";
import { findAutoFundingAccounts } from "./auto-funding-accounts";
import { errorMessage } from "./error-message";
import type { Job } from "./jobs";
import { type AccountRun, runAccount } from "./run-account";
import { claimRun, releaseRun } from "./run-claims";
import { type JobRun, runLockedJob } from "./run-locked-job";

export type SchedulerRun = JobRun | AccountRun;

export interface SchedulerOptions {
  /** Clean-up jobs: each on its own interval, under an advisory lock. */
  jobs?: Job[];
  /** Daily per-account jobs at a local hour, claimed in scheduled_runs. */
  accountJobs?: AccountJob[];
  /** Told about each run as it ends (the log), before runDue resolves with them all. */
  onRun?: (run: SchedulerRun) => void;
  /** How long this process leaves an account alone after its run failed. */
  retryAfterMs?: number;
}

const FIFTEEN_MINUTES_MS = 15 * 60_000;

/**
 * Runs what is due at `now`, one job after another.
 *
 * Clean-up jobs: when each last ran is kept in memory; one skipped because another machine holds
 * its lock counts as run, a failed one waits for its next turn.
 *
 * Account jobs: every call looks (in one query) for auto-funding accounts whose local time has
 * reached the job's hour and that no process has claimed for their local date, then claims and
 * runs each. The claim is a row of its own, committed before the run: the engine opens its own
 * transaction and locks the account itself, and a claim held open across the run would stall
 * every other scheduler on that account. A failed run deletes its claim so a later tick that day
 * retries (this process waits `retryAfterMs` first, not to log the same failure every minute).
 * A process killed mid-run leaves its claim: that account waits for the next day, whose run
 * takes in every event dated up to then.
 */
export function createScheduler(handle: DatabaseHandle, options: SchedulerOptions = {}) {
  const { jobs = [], accountJobs = [], onRun = () => {}, retryAfterMs = FIFTEEN_MINUTES_MS } = options;
  const lastRun = new Map<string, number>();
  const retryAt = new Map<string, number>();

  async function runAccountJob(job: AccountJob, now: Date, runs: SchedulerRun[]) {
    const report = (run: SchedulerRun) => {
      runs.push(run);
      onRun(run);
    };
    for (const [key, at] of retryAt) if (at <= now.getTime()) retryAt.delete(key);
    let due: Awaited<ReturnType<typeof findAutoFundingAccounts>>;
    try {
      due = await findAutoFundingAccounts(handle.db, now, { fromHour: job.hour, unclaimedBy: job.name });
    } catch (error) {
      report({ job: job.name, status: "failed", error: errorMessage(error) });
      return;
    }
    for (const { accountId, localDate } of due) {
      const key = `${job.name} ${accountId}`;
      if (retryAt.has(key)) continue;
      try {
        if (!(await claimRun(handle.db, job.name, accountId, localDate))) continue;
      } catch (error) {
        report({ job: job.name, status: "failed", error: errorMessage(error) });
        return;
      }
      const run = await runAccount(handle.db, job, accountId, localDate);
      if (run.status === "failed") {
        retryAt.set(key, now.getTime() + retryAfterMs);
        await releaseRun(handle.db, job.name, accountId, localDate).catch((error: unknown) => {
          run.error = `${run.error}; the claim stays until tomorrow: ${errorMessage(error)}`;
        });
      }
      report(run);
    }
  }

  return {
    async runDue(now = new Date()): Promise<SchedulerRun[]> {
      const runs: SchedulerRun[] = [];
      for (const job of jobs) {
        const last = lastRun.get(job.name);
        if (last !== undefined && now.getTime() - last < job.everyMs) continue;
        lastRun.set(job.name, now.getTime());
        const run = await runLockedJob(handle, job, now);
        runs.push(run);
        onRun(run);
      }
      for (const job of accountJobs) await runAccountJob(job, now, runs);
      return runs;
    },
  };
}
