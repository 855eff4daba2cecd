import { attachmentStoreFor } from "@allot/attachments/attachment-store-for";
import { createDatabase } from "@allot/db/create-database";
import { EmbeddedDatabaseInUse } from "@allot/db/embedded-database-lock";
import { accountJobs } from "@allot/scheduler/account-jobs";
import { jobsFor } from "@allot/scheduler/jobs";
import { httpWebhookPoster } from "@allot/webhook-poster/http-webhook-poster";
import { CommanderError } from "commander";
import { readEnv } from "./env";
import { createProgram, USAGE_EXIT_CODE } from "./program";

const openDatabase = async () => {
  // Named in the embedded database's lock file (the arguments are job names and dates only).
  const command = ["pnpm cron", ...process.argv.slice(2)].join(" ");
  const database = await createDatabase(readEnv().database, command);
  await database.migrate();
  return database;
};

try {
  const env = readEnv();
  const webhookPoster = httpWebhookPoster(env.webhooks);
  // The API's receipt files (local or S3): the removal job deletes what was let go.
  const jobs = jobsFor(env.jobs, { attachments: attachmentStoreFor(env.attachments) });
  await createProgram({ openDatabase, jobs, accountJobs, webhookPoster }).parseAsync(process.argv);
} catch (error) {
  // Commander has already printed its message (or the help) on stderr.
  if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
  else if (error instanceof EmbeddedDatabaseInUse) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  }
}
