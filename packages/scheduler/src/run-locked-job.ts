import type { DatabaseHandle } from "@allot/db/create-database";
import { internalContext } from "@allot/domain/shared/use-case-context";
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
    const outcome = await withJobLock(handle, job.lockId, () =>
      job.run({ ...internalContext(handle.db, "scheduler"), now }),
    );
    return outcome.skipped
      ? { job: job.name, status: "skipped" }
      : { job: job.name, status: "done", result: outcome.result };
  } catch (error) {
    return { job: job.name, status: "failed", error: errorMessage(error) };
  }
}
