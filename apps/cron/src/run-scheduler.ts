import type { DatabaseHandle } from "@allot/db/create-database";
import type { AccountJob } from "./account-jobs";
import type { Job } from "./jobs";
import { logLine } from "./log-line";
import { createScheduler } from "./scheduler";

// How often due work is looked for: account jobs start within a minute of their local hour.
const TICK_MS = 60_000;

/** The foreground loop (`pnpm cron`), or one pass with `once`; logs each run as a JSON line. */
export async function runScheduler(
  database: DatabaseHandle,
  options: { jobs: Job[]; accountJobs: AccountJob[]; once: boolean },
): Promise<void> {
  const scheduler = createScheduler(database, { ...options, onRun: logLine });

  // A tick that finds the previous one still running is dropped: a slow job never overlaps itself.
  let running: Promise<void> | null = null;
  const tick = () => {
    running ??= scheduler
      .runDue()
      .then(() => {})
      .catch((error: unknown) => logLine({ status: "failed", error: String(error) }))
      .finally(() => {
        running = null;
      });
    return running;
  };

  if (options.once) {
    await tick();
    await database.close();
    return;
  }
  const timer = setInterval(tick, TICK_MS);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, async () => {
      clearInterval(timer);
      await running;
      await database.close();
      process.exit(0);
    });
  }
  await tick();
}
