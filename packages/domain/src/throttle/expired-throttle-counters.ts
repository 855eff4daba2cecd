import { throttleCounters } from "@allot/db/schema/throttle-counters";
import { lt } from "drizzle-orm";
import type { PublicContext } from "../shared/use-case-context";

/** Drops counters of windows that have closed (a cron job). */
export async function deleteExpiredThrottleCounters({ db, now }: PublicContext): Promise<number> {
  const deleted = await db
    .delete(throttleCounters)
    .where(lt(throttleCounters.expiresAt, now))
    .returning({ key: throttleCounters.key });
  return deleted.length;
}
