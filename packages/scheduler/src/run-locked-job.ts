import type { DatabaseHandle } from "@allot/db/create-database";
import { errorMessage } from "./error-message";
import { withJobLock } from "./job-lock";
import type { Job } from "./jobs";

export interface JobRun {
  job: string;
  status: "done" | "skipped" | "failed";
  result?: unknown;
  error?: string;
}

/** Runs a clean-up job under its advisory lock: `skipped` when another process holds it. */
export async function runLockedJob(handle: DatabaseHandle, job: Job, now: Date): Promise<JobRun> {
  try {
    const outcome = await withJobLock(handle, job.lockId, () => job.run(handle.db, now));
    return outcome.skipped
      ? { job: job.name, status: "skipped" }
      : { job: job.name, status: "done", result: outcome.result };
  } catch (error) {
    return { job: job.name, status: "failed", error: errorMessage(error) };
  }
}
