import type { Log } from "@allot/logging/log";

/**
 * A scheduler event as one line of the process's logger: its fields (`job`, `status`, …) as they
 * are, at `error` when it reports a failure, else `info`.
 */
export function logLine(log: Log, entry: { job?: string; status?: string; error?: string }): void {
  const fields: Record<string, unknown> = { ...entry };
  const message = `${entry.job ?? "scheduler"} ${entry.status ?? ""}`.trim();
  if (entry.status === "failed") log.error(fields, message);
  else log.info(fields, message);
}
