import { createDatabase } from "@allot/db/create-database";
import { readEnv } from "./env";
import { jobs } from "./jobs";
import { createScheduler } from "./scheduler";

// How often due jobs are looked for; each job has its own interval (see jobs.ts).
const TICK_MS = 60_000;

const env = readEnv();
const database = await createDatabase(env.database);
await database.migrate();
const scheduler = createScheduler(database, jobs);

const log = (entry: Record<string, unknown>, failed = false) => {
  const line = JSON.stringify({ time: new Date().toISOString(), ...entry });
  if (failed) console.error(line);
  else console.log(line);
};

// A tick that finds the previous one still running is dropped: a slow job never overlaps itself.
let running: Promise<void> | null = null;
const tick = () => {
  running ??= scheduler
    .runDue()
    .then((runs) => {
      for (const run of runs) log({ ...run }, run.status === "failed");
    })
    .catch((error: unknown) => log({ status: "failed", error: String(error) }, true))
    .finally(() => {
      running = null;
    });
  return running;
};

// `--once`: run every job now and exit (for a system scheduler instead of this loop).
if (process.argv.includes("--once")) {
  await tick();
  await database.close();
} else {
  await tick();
  const timer = setInterval(tick, TICK_MS);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, async () => {
      clearInterval(timer);
      await running;
      await database.close();
      process.exit(0);
    });
  }
}
