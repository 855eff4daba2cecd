import { attachmentStoreFor } from "@allot/attachments/attachment-store-for";
import { databaseStartProblem } from "@allot/db/connection-problem";
import { createDatabase } from "@allot/db/create-database";
import { EmbeddedDatabaseInUse } from "@allot/db/embedded-database-lock";
import { sealStoredSecrets } from "@allot/domain/secrets/seal-stored-secrets";
import { type SecretVault, secretVault } from "@allot/domain/secrets/secret-vault";
import { ConfigurationError, exitOnStartupFailure } from "@allot/logging/configuration-error";
import { createLogger } from "@allot/logging/create-logger";
import { logFormatOf } from "@allot/logging/log-format";
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
  const options = readEnv().database;
  const database = await createDatabase(options, command).catch((error) => {
    if (error instanceof EmbeddedDatabaseInUse) throw new ConfigurationError(error.message);
    const problem = databaseStartProblem(error, options);
    throw problem ? new ConfigurationError(problem) : error;
  });
  await database.migrate().catch(async (error) => {
    await database.close().catch(() => {});
    const problem = databaseStartProblem(error, options);
    throw problem ? new ConfigurationError(problem) : error;
  });
  // Secrets stored in clear before sealing (or with a replaced key) are sealed with the current one.
  const { unreadableWebhooks } = await sealStoredSecrets(database.db, webhookVault());
  if (unreadableWebhooks > 0)
    log().error(
      { unreadableWebhooks },
      `${unreadableWebhooks} webhook secret(s) are sealed with a key this process does not hold: set SECRETS_KEY_PREVIOUS to the key SECRETS_KEY replaced.`,
    );
  return database;
};

// One logger for every line this process writes (the server's format: LOG_FORMAT, LOG_LEVEL).
let logger: ReturnType<typeof createLogger> | undefined;
const log = () => {
  if (!logger) {
    const { level, format } = readEnv().log;
    const terminal = process.stdout.isTTY === true;
    logger = createLogger({ level, format: logFormatOf(format, terminal), colorize: terminal });
  }
  return logger;
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
  await createProgram({
    openDatabase,
    jobs,
    accountJobs,
    webhookPoster,
    webhookVault,
    log: log(),
  }).parseAsync(process.argv);
} catch (error) {
  // Commander has already printed its message (or the help) on stderr.
  if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
  // A setting to fix: one or two plain lines. Anything else: its stack, mapped to the sources.
  else exitOnStartupFailure(error);
}
