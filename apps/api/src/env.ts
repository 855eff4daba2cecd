import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { attachmentSettingsOf, attachmentStorageEnv } from "@allot/attachments/attachment-storage-env";
import type { AttachmentSettings } from "@allot/attachments/attachment-store-for";
import { ATTACHMENT_MAX_BYTES } from "@allot/contract/transactions/transaction";
import { changesRetentionEnv } from "@allot/domain/changes/changes-retention-env";
import { embeddedJwtSecret, secretsKeysEnv, secretsKeysOf } from "@allot/domain/secrets/secrets-keys-env";
import { throttleRatesSchema } from "@allot/domain/throttle/throttle-rate";
import { webhookPolicyEnv, webhookPolicyOf } from "@allot/domain/webhooks/webhook-policy-env";
import { ConfigurationError, invalidEnvironment } from "@allot/logging/configuration-error";
import { LOG_FORMATS, type LogFormat } from "@allot/logging/log-format";
import type { MailSettings } from "@allot/mail/mail-transport-for";
import type { JobSettings } from "@allot/scheduler/jobs";
import { z } from "zod";
import type { ApiConfig } from "./config";
import { trustProxySchema } from "./http/trust-proxy";

// The only place process.env is read for the API (see docs/spec/operations.md for each variable).
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("127.0.0.1"),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default("./.data"),
  // pnpm sets INIT_CWD to where `pnpm start` was typed (the repo root), so the server and the
  // admin CLI (which runs in apps/cli) find the same ./.data.
  INIT_CWD: z.string().optional(),
  JWT_SECRET: z.string().min(32, "JWT_SECRET must be at least 32 characters").optional(),
  ...secretsKeysEnv,
  PUBLIC_BASE_URL: z.string().url().optional(),
  REFRESH_ROTATION: z.enum(["true", "false"]).default("true"),
  // Unset: the peer is the client. Behind a reverse proxy: its addresses/CIDR ranges, or a hop count.
  TRUST_PROXY: trustProxySchema.optional(),
  // Throttle counters in this Redis instead of the database (redis://[:password@]host:port[/db],
  // rediss:// for TLS); every API instance must name the same one.
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/[^\s]+$/, "REDIS_URL must be a redis:// or rediss:// URL")
    .optional(),
  // Prefix of the counters' keys: deployments (or test runs) sharing one Redis keep apart.
  REDIS_KEY_PREFIX: z.string().min(1).default("allot:throttle:"),
  THROTTLE_RATE_USER: throttleRatesSchema.prefault("1000/minute,20000/hour"),
  THROTTLE_RATE_ANON: throttleRatesSchema.prefault("100/minute,100/hour"),
  THROTTLE_RATE_LOGIN_IP: throttleRatesSchema.prefault("10/minute"),
  THROTTLE_RATE_LOGIN_EMAIL: throttleRatesSchema.prefault("20/hour"),
  THROTTLE_RATE_REFRESH_IP: throttleRatesSchema.prefault("60/minute"),
  // Unset: the defaults of throttle-checks.ts (20/day, 5/hour, 20/hour).
  THROTTLE_RATE_INVITATIONS: throttleRatesSchema.optional(),
  THROTTLE_RATE_PASSWORD_RESET_EMAIL: throttleRatesSchema.optional(),
  THROTTLE_RATE_PASSWORD_RESET_EMAIL_CEILING: throttleRatesSchema.optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Unset: readable lines when stdout is a terminal, JSON lines otherwise.
  LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
  // The scheduled jobs inside this process: the default on the embedded database, which no
  // `pnpm cron` process can open beside the server; with DATABASE_URL, cron processes run them.
  SCHEDULER: z.enum(["embedded", "off"]).optional(),
  // `file` by default: a fresh install completes every emailed flow (an invitation, a password
  // reset) with no mail server, the links read with `allot admin mail` and kept out of the log.
  MAIL_TRANSPORT: z.enum(["log", "file", "resend", "smtp"]).default("file"),
  // `file`: the outbox folder; unset, DATA_DIR/mail.
  MAIL_DIR: z.string().optional(),
  MAIL_FROM: z.string().default("Allot <noreply@allot.localhost>"),
  // `log` transport: print messages whole, links' tokens included (local development only).
  MAIL_LOG_BODIES: z.enum(["true", "false"]).default("false"),
  RESEND_API_KEY: z.string().optional(),
  // `smtp` transport: smtp://user:pass@host:587 (STARTTLS when offered) or smtps:// (TLS at once).
  // The message never repeats the value: it holds a password.
  SMTP_URL: z
    .string()
    .refine(
      isSmtpUrl,
      "SMTP_URL must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:pass@host:587",
    )
    .optional(),
  // A PEM file of certificates trusted for SMTP besides the public roots (a private CA, a self-signed server).
  SMTP_TLS_CA: z.string().min(1).optional(),
  ...webhookPolicyEnv,
  IDEMPOTENCY_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  // The largest receipt file, in bytes: 10 MB, which it may lower (the upload routes' body bound
  // is made for 10 MB files).
  ATTACHMENT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(ATTACHMENT_MAX_BYTES)
    .default(ATTACHMENT_MAX_BYTES),
  ...changesRetentionEnv,
  ...attachmentStorageEnv,
});

export interface ApiEnv {
  port: number;
  host: string;
  database: { url: string } | { dataDir: string };
  /** Set: throttle counters live in this Redis (keys under `prefix`); null: in the database. */
  redis: { url: string; prefix: string } | null;
  logLevel: string;
  /** LOG_FORMAT, if set (main.ts picks by the terminal otherwise). */
  logFormat: LogFormat | undefined;
  /** `embedded`: the server runs the scheduler's jobs itself (main.ts). */
  scheduler: "embedded" | "off";
  jobs: JobSettings;
  mail: MailSettings;
  /** Where receipt files live: `DATA_DIR/attachments`, or an S3-compatible bucket. */
  attachments: AttachmentSettings;
  config: ApiConfig;
}

/**
 * The server's settings. Whatever is wrong with them (the helpers of other packages throw plain
 * errors) is a ConfigurationError naming the variable: main.ts prints it without a stack.
 */
export function readEnv(env: NodeJS.ProcessEnv = process.env): ApiEnv {
  try {
    return settingsOf(env);
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    throw new ConfigurationError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * ALLOT_CHECK_ANSWERS=1 (the tests set it): every answer is parsed against its output schema
 * (trpc/answer-schema.ts). Not part of readEnv: the procedures are built when their modules load,
 * before any config exists.
 */
export function answersChecked(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.ALLOT_CHECK_ANSWERS === "1";
}

function settingsOf(env: NodeJS.ProcessEnv): ApiEnv {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw invalidEnvironment(parsed.error.issues);
  const e = parsed.data;
  const dataDir = resolve(e.INIT_CWD ?? process.cwd(), e.DATA_DIR);
  if (e.DATABASE_URL && !e.JWT_SECRET)
    throw new ConfigurationError(
      "JWT_SECRET is required with DATABASE_URL: set JWT_SECRET (at least 32 characters)",
    );
  const jwtSecret = e.JWT_SECRET ?? embeddedJwtSecret(dataDir);
  if (e.MAIL_TRANSPORT === "resend" && !e.RESEND_API_KEY)
    throw new Error("RESEND_API_KEY is required with MAIL_TRANSPORT=resend");
  if (e.MAIL_TRANSPORT === "smtp" && !e.SMTP_URL)
    throw new Error("SMTP_URL is required with MAIL_TRANSPORT=smtp");
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL ? { url: e.DATABASE_URL } : { dataDir: join(dataDir, "pglite") },
    redis: e.REDIS_URL ? { url: e.REDIS_URL, prefix: e.REDIS_KEY_PREFIX } : null,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    scheduler: e.SCHEDULER ?? (e.DATABASE_URL ? "off" : "embedded"),
    jobs: { changesRetentionDays: e.CHANGES_RETENTION_DAYS },
    mail:
      e.MAIL_TRANSPORT === "file"
        ? {
            transport: "file",
            from: e.MAIL_FROM,
            directory: e.MAIL_DIR ? resolve(e.INIT_CWD ?? process.cwd(), e.MAIL_DIR) : join(dataDir, "mail"),
          }
        : e.MAIL_TRANSPORT === "resend"
          ? { transport: "resend", from: e.MAIL_FROM, apiKey: e.RESEND_API_KEY as string }
          : e.MAIL_TRANSPORT === "smtp"
            ? {
                transport: "smtp",
                from: e.MAIL_FROM,
                url: e.SMTP_URL as string,
                ...(e.SMTP_TLS_CA
                  ? { ca: readCertificates(resolve(e.INIT_CWD ?? process.cwd(), e.SMTP_TLS_CA)) }
                  : {}),
              }
            : { transport: "log", from: e.MAIL_FROM, logBodies: e.MAIL_LOG_BODIES === "true" },
    attachments: attachmentSettingsOf(e, dataDir),
    config: {
      jwtSecret,
      secrets: secretsKeysOf(e, jwtSecret),
      publicBaseUrl: e.PUBLIC_BASE_URL ?? `http://127.0.0.1:${e.PORT}`,
      refreshRotation: e.REFRESH_ROTATION === "true",
      ...(e.TRUST_PROXY === undefined ? {} : { trustProxy: e.TRUST_PROXY }),
      secureCookies: true,
      webhooks: webhookPolicyOf(e),
      idempotencyTtlHours: e.IDEMPOTENCY_TTL_HOURS,
      attachmentMaxBytes: e.ATTACHMENT_MAX_BYTES,
      throttle: {
        user: e.THROTTLE_RATE_USER,
        anon: e.THROTTLE_RATE_ANON,
        loginPerIp: e.THROTTLE_RATE_LOGIN_IP,
        loginPerEmail: e.THROTTLE_RATE_LOGIN_EMAIL,
        refreshPerIp: e.THROTTLE_RATE_REFRESH_IP,
        invitationsPerUser: e.THROTTLE_RATE_INVITATIONS,
        passwordResetEmailPerAddress: e.THROTTLE_RATE_PASSWORD_RESET_EMAIL,
        passwordResetEmailCeiling: e.THROTTLE_RATE_PASSWORD_RESET_EMAIL_CEILING,
      },
    },
  };
}

function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** SMTP_TLS_CA's certificates, read once at start-up so a wrong path stops the server at once. */
function readCertificates(file: string): string {
  let pem: string;
  try {
    pem = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`SMTP_TLS_CA: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  if (!pem.includes("-----BEGIN CERTIFICATE-----"))
    throw new Error(`SMTP_TLS_CA: ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return pem;
}
