import { join } from "node:path";
import { z } from "zod";
import type { AttachmentSettings } from "./attachment-store-for";

/**
 * ATTACHMENT_STORAGE and S3_* (docs/spec/extensions.md §5), read by the API's and cron's env.ts
 * alike: the API stores and serves receipts, cron's job removes the ones let go.
 */
export const attachmentStorageEnv = {
  ATTACHMENT_STORAGE: z.enum(["local", "s3"]).default("local"),
  S3_BUCKET: z.string().min(3, "S3_BUCKET must be at least 3 characters.").optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).default("false"),
};

type AttachmentStorageEnv = z.output<z.ZodObject<typeof attachmentStorageEnv>>;

/** Where receipts live: `DATA_DIR/attachments` by default, or the S3 bucket the variables name. */
export function attachmentSettingsOf(e: AttachmentStorageEnv, dataDir: string): AttachmentSettings {
  if (e.ATTACHMENT_STORAGE === "local") return { storage: "local", directory: join(dataDir, "attachments") };
  const missing = (["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const).filter(
    (name) => e[name] === undefined,
  );
  if (missing.length > 0)
    throw new Error(
      `ATTACHMENT_STORAGE=s3 needs ${missing.join(", ")} (and S3_ENDPOINT for a store other than AWS)`,
    );
  return {
    storage: "s3",
    bucket: e.S3_BUCKET as string,
    ...(e.S3_ENDPOINT === undefined ? {} : { endpoint: e.S3_ENDPOINT }),
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID as string,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY as string,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === "true",
  };
}
