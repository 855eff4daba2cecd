import { attachmentStoreFor } from "@allot/attachments/attachment-store-for";
import { databaseStartProblem } from "@allot/db/connection-problem";
import { createDatabase } from "@allot/db/create-database";
import { EmbeddedDatabaseInUse } from "@allot/db/embedded-database-lock";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import { listenForCredentialRevocations } from "@allot/domain/auth/credential-revocations";
import { sealStoredSecrets } from "@allot/domain/secrets/seal-stored-secrets";
import { secretVault } from "@allot/domain/secrets/secret-vault";
import { issueSetupToken, setupLink } from "@allot/domain/setup/issue-setup-token";
import { ConfigurationError, exitOnStartupFailure } from "@allot/logging/configuration-error";
import { createLogger } from "@allot/logging/create-logger";
import { logFormatOf } from "@allot/logging/log-format";
import { mailTransportFor } from "@allot/mail/mail-transport-for";
import { accountJobs } from "@allot/scheduler/account-jobs";
import { type EmailDelivery, startEmailDelivery } from "@allot/scheduler/email-delivery";
import { jobsFor } from "@allot/scheduler/jobs";
import { type SchedulerLoop, startScheduler } from "@allot/scheduler/run-scheduler";
import { startWebhookDelivery, type WebhookDelivery } from "@allot/scheduler/webhook-delivery";
import { httpWebhookPoster } from "@allot/webhook-poster/http-webhook-poster";
import { buildApp } from "./app";
import { readEnv } from "./env";
import { REQUEST_LOG_RULES } from "./http/request-log";
import { connectRedis, createRedisClient } from "./throttle/redis-connection";
import { redisThrottleCounters } from "./throttle/redis-throttle-store";

// A start-up failure a setting fixes (ConfigurationError) is printed as one or two plain lines on
// stderr; anything else is a crash, printed with its stack led back to the sources through the
// bundle's map. Exit code 1 either way.
await start().catch(exitOnStartupFailure);

async function start() {
  const env = readEnv();
  // One logger for every line this process writes: requests, jobs, deliveries, start and stop.
  const terminal = process.stdout.isTTY === true;
  const log = createLogger({
    level: env.logLevel,
    format: logFormatOf(env.logFormat, terminal),
    colorize: terminal,
    ...REQUEST_LOG_RULES,
  });
  const database = await openDatabase(env.database);
  // Secrets stored in clear before sealing (or with a replaced key) are sealed with the current one.
  const vault = secretVault(env.config.secrets);
  const sealing = await sealStoredSecrets(database.db, vault);
  // Cached credentials are evicted on every instance when any process ends them (decision 0045).
  const stopCredentialRevocations = await listenForCredentialRevocations(database);
  // REDIS_URL: throttle counters in Redis (shared by every instance naming it), else in the database.
  const redis = env.redis ? createRedisClient(env.redis.url) : null;
  // Receipt files: under DATA_DIR/attachments, or in the S3-compatible bucket ATTACHMENT_STORAGE=s3 names.
  const attachments = attachmentStoreFor(env.attachments);
  const app = await buildApp(
    { db: database.db, tokens: createAccessTokens(env.config.jwtSecret), config: env.config, attachments },
    {
      loggerInstance: log,
      throttleCounters: redis && env.redis ? redisThrottleCounters(redis, env.redis.prefix) : undefined,
    },
  );
  if (sealing.webhooks + sealing.idempotencyRecords > 0)
    app.log.info(sealing, "sealed the secrets stored in clear (webhook secrets, idempotency records)");
  if (sealing.unreadableWebhooks > 0)
    app.log.error(
      sealing,
      "webhook secrets sealed with a key this server does not hold: set SECRETS_KEY_PREVIOUS to the key SECRETS_KEY replaced",
    );
  if (redis && env.redis) {
    await connectRedis(redis, env.redis.url, {
      info: (message) => app.log.info(message),
      error: (message) => app.log.error(message),
    }).catch(async (error) => {
      await database.close();
      throw error;
    });
  }

  // The embedded database admits this process only, so by default the server runs the scheduled
  // jobs itself, in the same loop as `pnpm cron`. Closing the server stops the loop (waiting for a
  // run under way) before the database closes.
  let scheduler: SchedulerLoop | null = null;
  let emailDelivery: EmailDelivery | null = null;
  let webhookDelivery: WebhookDelivery | null = null;
  const webhookPoster = httpWebhookPoster(env.config.webhooks);
  // One per process: the `smtp` transport keeps its connection to the server between messages.
  const mailTransport = mailTransportFor(env.mail);
  app.addHook("onClose", async () => {
    await scheduler?.stop();
    await emailDelivery?.stop();
    await mailTransport.close?.();
    await webhookDelivery?.stop();
    await webhookPoster.close();
    await redis?.quit().catch(() => redis.disconnect());
    await stopCredentialRevocations();
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, async () => {
      log.info({ signal }, `${signal} received: stopping (requests under way and running jobs finish first)`);
      await app.close();
      await database.close();
      log.info("stopped");
      process.exit(0);
    });
  }

  await app.listen({ port: env.port, host: env.host }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "EADDRINUSE")
      throw new ConfigurationError(
        `Port ${env.port} on ${env.host} is in use by another process: set PORT to a free port (or HOST to another address).`,
      );
    if (error.code === "EADDRNOTAVAIL" || error.code === "EACCES")
      throw new ConfigurationError(
        `Cannot listen on ${env.host}:${env.port} (${error.code}): set HOST to an address of this machine and PORT to one this user may open.`,
      );
    throw error;
  });
  // Where the emails go, on the start lines whatever LOG_LEVEL says: on a default install the
  // invitation and password-reset links are read there (decision 0054).
  if (env.mail.transport === "file")
    process.stdout.write(
      `Email goes to files in ${env.mail.directory}: \`pnpm cli admin mail\` (or \`allot admin mail\`) shows them with their links; set MAIL_TRANSPORT=smtp to send it.\n`,
    );
  // First run: while no user exists, each start prints a new one-time link to create the first one
  // (it retires the links of earlier starts). Printed whatever LOG_LEVEL says: it is the way in. This
  // is the only line that holds the token; request logs mask it (/links/setup/[masked]).
  const setupToken = await issueSetupToken(database.db);
  if (setupToken) {
    process.stdout.write(
      "\nAllot has no users yet. Open this link to create the first one (it works once):\n" +
        `  ${setupLink(env.config.publicBaseUrl, setupToken)}\n\n`,
    );
    // Logged too (extensions.md §6), without the token: logs never hold credentials.
    app.log.info("No user exists yet: the one-time setup link was printed on stdout");
  }
  // Emails queued by requests and jobs go out from here (every API process), a moment after their commit.
  emailDelivery = startEmailDelivery(database.db, mailTransport, {
    publicBaseUrl: env.config.publicBaseUrl,
    vault,
    log,
    transportName: env.mail.transport,
  });
  // Webhook deliveries too: every API process takes its share of the outbox (so does `pnpm cron`).
  webhookDelivery = startWebhookDelivery(database, { poster: webhookPoster, vault, log });
  if (env.scheduler === "embedded")
    scheduler = startScheduler(database, {
      jobs: jobsFor(env.jobs, { attachments, vault: () => vault }),
      accountJobs,
      log,
    });
}

/**
 * Opens and migrates the database. Another process holding the embedded database, a DATA_DIR that
 * cannot be written, or a DATABASE_URL whose server cannot be reached or refuses the login, is a
 * ConfigurationError: said plainly.
 */
async function openDatabase(options: Parameters<typeof createDatabase>[0]) {
  try {
    const database = await createDatabase(options, "the Allot server");
    await database.migrate().catch(async (error) => {
      await database.close().catch(() => {});
      throw error;
    });
    return database;
  } catch (error) {
    if (error instanceof EmbeddedDatabaseInUse) throw new ConfigurationError(error.message);
    const problem = databaseStartProblem(error, options);
    throw problem ? new ConfigurationError(problem) : error;
  }
}
