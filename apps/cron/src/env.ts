import { join, resolve } from "node:path";
import type { DatabaseOptions } from "@allot/db/create-database";
import { z } from "zod";

// The only place process.env is read for cron: the same database settings as the API.
const EnvSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default("./.data"),
});

export interface CronEnv {
  database: DatabaseOptions;
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): CronEnv {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw new Error(`Invalid environment:\n${z.prettifyError(parsed.error)}`);
  const { DATABASE_URL, DATA_DIR } = parsed.data;
  return { database: DATABASE_URL ? { url: DATABASE_URL } : { dataDir: join(resolve(DATA_DIR), "pglite") } };
}
