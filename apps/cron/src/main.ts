import { attachmentStoreFor } from "@allot/attachments/attachment-store-for";
import { createDatabase } from "@allot/db/create-database";
import { EmbeddedDatabaseInUse } from "@allot/db/embedded-database-lock";
import { sealStoredSecrets } from "@allot/domain/secrets/seal-stored-secrets";
import { type SecretVault, secretVault } from "@allot/domain/secrets/secret-vault";
import { accountJobs } from "@allot/scheduler/account-jobs";
import { jobsFor } from "@allot/scheduler/jobs";
import { httpWebhookPoster } from "@allot/webhook-poster/http-webhook-poster";
import { CommanderError } from "commander";
import { readEnv } from "./env";
import { createProgram, USAGE_EXIT_CODE } from "./program";

let vault: SecretVault | undefined;
// The key is read when first needed: a usage error touches neither the database nor DATA_DIR.
const webhookVault = () => {
  vault ??= secretVault(readEnv().secrets());
  return vault;
};

const openDatabase = async () => {
  // Named in the embedded database's lock file (the arguments are job names and dates only).
  const command = ["pnpm cron", ...process.argv.slice(2)].join(" ");
  const database = await createDatabase(readEnv().database, command);
  await database.migrate();
  // Secrets stored in clear before sealing (or with a replaced key) are sealed with the current one.
  const { unreadableWebhooks } = await sealStoredSecrets(database.db, webhookVault());
  if (unreadableWebhooks > 0)
    console.error(
      `${unreadableWebhooks} webhook secret(s) are sealed with a key this process does not hold: set SECRETS_KEY_PREVIOUS to the key SECRETS_KEY replaced.`,
    );
  return database;
};

try {
  const env = readEnv();
  const webhookPoster = httpWebhookPoster(env.webhooks);
  // The API's receipt files (local or S3): the removal job deletes what was let go. The digests
  // job seals the emails it queues with the API's key.
  const jobs = jobsFor(env.jobs, {
    attachments: attachmentStoreFor(env.attachments),
    vault: webhookVault,
  });
  await createProgram({ openDatabase, jobs, accountJobs, webhookPoster, webhookVault }).parseAsync(
    process.argv,
  );
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
