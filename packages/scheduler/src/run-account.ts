import type { Database } from "@allot/db/create-database";
import type { AccountJob } from "./account-jobs";
import { errorMessage } from "./error-message";

/** One account's run of an account job: what the log line says. */
export interface AccountRun {
  job: string;
  account_id: string;
  local_date: string;
  status: "done" | "failed";
  transfers?: number;
  occurrences_completed?: number;
  occurrences_partial?: number;
  warnings?: number;
  skipped_budgets?: number;
  error?: string;
  duration_ms: number;
}

/** Runs the job on one account; a failure becomes a `failed` run, never a throw. */
export async function runAccount(
  db: Database,
  job: AccountJob,
  accountId: string,
  localDate: string,
): Promise<AccountRun> {
  const started = performance.now();
  const base = { job: job.name, account_id: accountId, local_date: localDate };
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const result = await job.run(db, accountId, localDate);
    return {
      ...base,
      status: "done",
      transfers: result.transfers,
      occurrences_completed: result.occurrences_completed,
      occurrences_partial: result.occurrences_partial,
      warnings: result.warnings.length,
      skipped_budgets: result.skipped_budgets.length,
      duration_ms: elapsed(),
    };
  } catch (error) {
    return { ...base, status: "failed", error: errorMessage(error), duration_ms: elapsed() };
  }
}
