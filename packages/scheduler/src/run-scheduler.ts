import type { DatabaseHandle } from "@allot/db/create-database";
import type { Log } from "@allot/logging/log";
import type { AccountJob } from "./account-jobs";
import type { Job } from "./jobs";
import { logLine } from "./log-line";
import { createScheduler, type SchedulerRun } from "./scheduler";

// How often due work is looked for: account jobs start within a minute of their local hour.
const TICK_MS = 60_000;

export interface SchedulerLoopOptions {
  jobs: Job[];
  accountJobs: AccountJob[];
  /** The process's logger: each run, and a failed pass, is a line of it. */
  log: Log;
  /** Each run as it ends: one log line unless told otherwise. */
  onRun?: (run: SchedulerRun) => void;
}

export interface SchedulerLoop {
  /** Stops ticking and waits for a tick under way; the caller closes the database after. */
  stop(): Promise<void>;
}

function ticker(database: DatabaseHandle, options: SchedulerLoopOptions) {
  const onRun = options.onRun ?? ((run: SchedulerRun) => logLine(options.log, run));
  const scheduler = createScheduler(database, { ...options, onRun });
  // A tick that finds the previous one still running is dropped: a slow job never overlaps itself.
  let running: Promise<void> | null = null;
  const tick = () => {
    running ??= scheduler
      .runDue()
      .then(() => {})
      .catch((error: unknown) => logLine(options.log, { status: "failed", error: String(error) }))
      .finally(() => {
        running = null;
      });
    return running;
  };
  return { tick, running: () => running };
}

/** One pass over what is due now (`pnpm cron --once`), each run logged. */
export async function runSchedulerOnce(database: DatabaseHandle, options: SchedulerLoopOptions) {
  await ticker(database, options).tick();
}

/**
 * The scheduler loop: a pass now, then one every minute, until `stop`. Runs in `pnpm cron`, and
 * inside the API process on the embedded database (which admits one process only).
 */
export function startScheduler(database: DatabaseHandle, options: SchedulerLoopOptions): SchedulerLoop {
  const { tick, running } = ticker(database, options);
  const timer = setInterval(tick, TICK_MS);
  void tick();
  return {
    async stop() {
      clearInterval(timer);
      await running();
    },
  };
}
