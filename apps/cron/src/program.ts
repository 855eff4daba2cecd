import { dateField } from "@allot/contract/http/fields";
import type { DatabaseHandle } from "@allot/db/create-database";
import { Argument, Command, InvalidArgumentError } from "commander";
import type { AccountJob } from "./account-jobs";
import type { Job } from "./jobs";
import { logLine } from "./log-line";
import { runJobNow } from "./run-now";
import { runScheduler } from "./run-scheduler";

export interface ProgramDeps {
  openDatabase(): Promise<DatabaseHandle>;
  jobs: Job[];
  accountJobs: AccountJob[];
}

/** The exit code of every command-line mistake, commander's own ones too (set in main.ts). */
export const USAGE_EXIT_CODE = 2;

const asOfDate = (value: string) => {
  const parsed = dateField().safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(parsed.error.issues[0]?.message ?? "Invalid date.");
  return parsed.data;
};

/**
 * `cron` runs the scheduler in the foreground (`--once`: one pass, then exit); `cron run <job>`
 * runs one job now. Commander throws on a usage error (exitOverride): main.ts sets the exit code.
 */
export function createProgram({ openDatabase, jobs, accountJobs }: ProgramDeps): Command {
  const program = new Command()
    .name("cron")
    .description("Allot's scheduled jobs: clean-ups, and funding per account at its local hours")
    .exitOverride()
    .showHelpAfterError("(add --help for usage)")
    .option("--once", "one pass over what is due now, then exit (for a system scheduler)")
    .action(async (options: { once?: boolean }) => {
      await runScheduler(await openDatabase(), { jobs, accountJobs, once: options.once ?? false });
    });

  program
    .command("run")
    .description("run one job once, now, and exit (account jobs: every auto-funding account)")
    .addArgument(new Argument("<job>", "job name").choices([...jobs, ...accountJobs].map((job) => job.name)))
    .option(
      "--as-of <date>",
      "fund/recur: run as of this date (default: each account's local today)",
      asOfDate,
    )
    .action(async function (this: Command, name: string, options: { asOf?: string }) {
      // commander has checked the name against the choices already
      const job = [...jobs, ...accountJobs].find((candidate) => candidate.name === name);
      if (!job) return this.error(`error: unknown job '${name}'`, { exitCode: USAGE_EXIT_CODE });
      if (options.asOf !== undefined && "lockId" in job)
        return this.error(`error: --as-of applies to account jobs only, not to '${name}'`, {
          exitCode: USAGE_EXIT_CODE,
        });
      const database = await openDatabase();
      try {
        const runs = await runJobNow(database, job, { asOf: options.asOf, onRun: logLine });
        if (runs.some((run) => run.status === "failed")) process.exitCode = 1;
      } finally {
        await database.close();
      }
    });

  return program;
}
