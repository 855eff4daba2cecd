import { dateField } from "@allot/contract/http/fields";
import type { DatabaseHandle } from "@allot/db/create-database";
import type { SecretVault } from "@allot/domain/secrets/secret-vault";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { deliverDueWebhooks } from "@allot/domain/webhooks/deliver-webhooks";
import type { WebhookPoster } from "@allot/domain/webhooks/webhook-poster";
import type { Log } from "@allot/logging/log";
import type { AccountJob } from "@allot/scheduler/account-jobs";
import type { Job } from "@allot/scheduler/jobs";
import { logLine } from "@allot/scheduler/log-line";
import { runAheadOf } from "@allot/scheduler/run-ahead";
import { runJobNow } from "@allot/scheduler/run-now";
import { runSchedulerOnce, startScheduler } from "@allot/scheduler/run-scheduler";
import { startWebhookDelivery, webhookFailureWarning } from "@allot/scheduler/webhook-delivery";
import { Argument, Command, InvalidArgumentError } from "commander";
import { confirmRunAhead, RunAheadRefused, runAheadWarning } from "./confirm-run-ahead";

export interface ProgramDeps {
  openDatabase(): Promise<DatabaseHandle>;
  jobs: Job[];
  accountJobs: AccountJob[];
  /** Sends the webhook deliveries this process claims (several cron and API processes share them). */
  webhookPoster: WebhookPoster & { close(): Promise<void> };
  /** Opens the webhook secrets this process signs with, and seals the emails its jobs queue (decision 0049). */
  webhookVault(): SecretVault;
  /** The process's logger: job runs, failed deliveries, stop. */
  log: Log;
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
export function createProgram({
  openDatabase,
  jobs,
  accountJobs,
  webhookPoster,
  webhookVault,
  log,
}: ProgramDeps): Command {
  const program = new Command()
    .name("cron")
    .description(
      "Allot's scheduled jobs: clean-ups, funding per account at its local hours, and webhook deliveries",
    )
    .exitOverride()
    .showHelpAfterError("(add --help for usage)")
    .option(
      "--once",
      "one pass over what is due now (jobs and webhook deliveries), then exit (for a system scheduler)",
    )
    .action(async (options: { once?: boolean }) => {
      const database = await openDatabase();
      if (options.once) {
        try {
          await runSchedulerOnce(database, { jobs, accountJobs, log });
          await deliverDueWebhooks(internalContext(database.db, "scheduler"), {
            poster: webhookPoster,
            vault: webhookVault(),
            onFailure: webhookFailureWarning(log),
          });
        } finally {
          await webhookPoster.close();
          await database.close();
        }
        return;
      }
      const loop = startScheduler(database, { jobs, accountJobs, log });
      const webhooks = startWebhookDelivery(database, { poster: webhookPoster, vault: webhookVault(), log });
      log.info("cron started: jobs run as they come due, webhook deliveries as they are queued");
      for (const signal of ["SIGINT", "SIGTERM"] as const) {
        process.once(signal, async () => {
          log.info({ signal }, `${signal} received: stopping (a running job finishes first)`);
          await loop.stop();
          await webhooks.stop();
          await webhookPoster.close();
          await database.close();
          log.info("stopped");
          process.exit(0);
        });
      }
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
    .option("--yes", "fund/recur: do not ask before running ahead of time (an --as-of after today)")
    .action(async function (this: Command, name: string, options: { asOf?: string; yes?: boolean }) {
      // commander has checked the name against the choices already
      const job = [...jobs, ...accountJobs].find((candidate) => candidate.name === name);
      if (!job) return this.error(`error: unknown job '${name}'`, { exitCode: USAGE_EXIT_CODE });
      if (options.asOf !== undefined && "lockId" in job)
        return this.error(`error: --as-of applies to account jobs only, not to '${name}'`, {
          exitCode: USAGE_EXIT_CODE,
        });
      const database = await openDatabase();
      try {
        const now = new Date();
        // A day after the accounts' today moves money ahead of time: said first, then confirmed.
        const ahead =
          options.asOf === undefined || "lockId" in job
            ? null
            : await runAheadOf(database.db, job, options.asOf, now);
        if (ahead && options.asOf) {
          const kind = job.name === "recur" ? "recur" : "fund";
          process.stderr.write(`${runAheadWarning(kind, options.asOf, ahead)}\n`);
          const refused = await confirmRunAhead(kind, options.asOf, ahead, options.yes).then(
            () => null,
            (error: unknown) => {
              if (error instanceof RunAheadRefused) return error.message;
              throw error;
            },
          );
          if (refused !== null) {
            // Not a usage error (no help follows): nothing ran, exit 2 as the CLI's refusal.
            process.stderr.write(`error: ${refused}\n`);
            process.exitCode = USAGE_EXIT_CODE;
            return;
          }
        }
        const runs = await runJobNow(database, job, {
          now,
          asOf: options.asOf,
          onRun: (run) => logLine(log, run),
        });
        if (runs.some((run) => run.status === "failed")) process.exitCode = 1;
      } finally {
        await database.close();
      }
    });

  return program;
}
