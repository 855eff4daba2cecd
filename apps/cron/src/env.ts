import { join, resolve } from "node:path";
import { attachmentSettingsOf, attachmentStorageEnv } from "@allot/attachments/attachment-storage-env";
import type { AttachmentSettings } from "@allot/attachments/attachment-store-for";
import type { DatabaseOptions } from "@allot/db/create-database";
import { changesRetentionEnv } from "@allot/domain/changes/changes-retention-env";
import type { SecretsKeys } from "@allot/domain/secrets/secret-vault";
import { embeddedJwtSecret, secretsKeysEnv, secretsKeysOf } from "@allot/domain/secrets/secrets-keys-env";
import type { WebhookPolicy } from "@allot/domain/webhooks/address-policy";
import { webhookPolicyEnv, webhookPolicyOf } from "@allot/domain/webhooks/webhook-policy-env";
import { ConfigurationError, invalidEnvironment } from "@allot/logging/configuration-error";
import { LOG_FORMATS, type LogFormat } from "@allot/logging/log-format";
import type { JobSettings } from "@allot/scheduler/jobs";
import { z } from "zod";

// The only place process.env is read for cron: the same database settings as the API.
const EnvSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default("./.data"),
  // pnpm sets INIT_CWD to where `pnpm cron` was typed (the repo root); the script runs in
  // apps/cron, so without it a relative DATA_DIR would name another folder than the server's.
  INIT_CWD: z.string().optional(),
  // The API's: the webhook secrets this process signs with are sealed with a key derived from it
  // (or SECRETS_KEY); on the embedded database, the one the server generated into DATA_DIR.
  JWT_SECRET: z.string().min(32, "JWT_SECRET must be at least 32 characters").optional(),
  ...secretsKeysEnv,
  ...webhookPolicyEnv,
  ...changesRetentionEnv,
  ...attachmentStorageEnv,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Unset: readable lines when stdout is a terminal, JSON lines otherwise (as the server's).
  LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
});

export interface CronEnv {
  database: DatabaseOptions;
  /** Where the webhooks this process delivers may go. */
  webhooks: WebhookPolicy;
  /** The key the webhooks' secrets are sealed with (the API's); read when a database is opened. */
  secrets(): SecretsKeys;
  jobs: JobSettings;
  /** The API's receipt files: `DATA_DIR/attachments`, or its S3-compatible bucket. */
  attachments: AttachmentSettings;
  log: { level: string; format: LogFormat | undefined };
}

/** Whatever a helper of another package throws about a setting is a ConfigurationError too. */
function asConfiguration<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    throw new ConfigurationError(error instanceof Error ? error.message : String(error));
  }
}

/** cron's settings; what is wrong with them is a ConfigurationError (main.ts prints it plainly). */
export function readEnv(env: NodeJS.ProcessEnv = process.env): CronEnv {
  return asConfiguration(() => settingsOf(env));
}

function settingsOf(env: NodeJS.ProcessEnv): CronEnv {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw invalidEnvironment(parsed.error.issues);
  const { DATABASE_URL, DATA_DIR, INIT_CWD } = parsed.data;
  const dataDir = resolve(INIT_CWD ?? process.cwd(), DATA_DIR);
  const e = parsed.data;
  return {
    database: DATABASE_URL ? { url: DATABASE_URL } : { dataDir: join(dataDir, "pglite") },
    webhooks: webhookPolicyOf(parsed.data),
    // Embedded: the server's generated key, read (or made) only by a command that opens the database.
    // With SECRETS_KEY set the JWT secret is not used: none is generated for nothing.
    secrets: () =>
      asConfiguration(() => {
        if (DATABASE_URL && !e.JWT_SECRET && !e.SECRETS_KEY)
          throw new ConfigurationError(
            "JWT_SECRET (the API's) or SECRETS_KEY is required with DATABASE_URL: webhook secrets are sealed with it",
          );
        return secretsKeysOf(e, e.JWT_SECRET ?? (e.SECRETS_KEY ? "" : embeddedJwtSecret(dataDir)));
      }),
    jobs: { changesRetentionDays: parsed.data.CHANGES_RETENTION_DAYS },
    attachments: attachmentSettingsOf(parsed.data, dataDir),
    log: { level: e.LOG_LEVEL, format: e.LOG_FORMAT },
  };
}
