import type { DatabaseHandle } from "@allot/db/create-database";
import { withJobLock } from "./job-lock";
import type { Job } from "./jobs";

export interface JobRun {
  job: string;
  status: "done" | "skipped" | "failed";
  result?: unknown;
  error?: string;
}

/**
 * Keeps when each job last ran (in memory) and runs the due ones, one after another. A job
 * skipped because another machine holds its lock counts as run; a failed one waits for its next
 * turn. Jobs are idempotent, so two machines each running one in the same day is harmless.
 */
export function createScheduler(handle: DatabaseHandle, jobs: Job[]) {
  const lastRun = new Map<string, number>();

  return {
    async runDue(now = new Date()): Promise<JobRun[]> {
      const runs: JobRun[] = [];
      for (const job of jobs) {
        const last = lastRun.get(job.name);
        if (last !== undefined && now.getTime() - last < job.everyMs) continue;
        lastRun.set(job.name, now.getTime());
        try {
          const outcome = await withJobLock(handle, job.lockId, () => job.run(handle.db, now));
          runs.push(
            outcome.skipped
              ? { job: job.name, status: "skipped" }
              : { job: job.name, status: "done", result: outcome.result },
          );
        } catch (error) {
          runs.push({
            job: job.name,
            status: "failed",
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
      return runs;
    },
  };
}
