import { z } from "zod";

/**
 * CHANGES_RETENTION_DAYS (docs/spec/extensions.md §2), read by the API's and cron's env.ts alike
 * (both run the purge): how long the change feed keeps deletions. At least the 90 days the contract
 * promises; longer keeps older cursors usable.
 */
export const changesRetentionEnv = {
  CHANGES_RETENTION_DAYS: z.coerce.number().int().min(90).max(3_650).default(90),
};
