import type { Database } from "@allot/db/create-database";
import { changeCounters } from "@allot/db/schema/change-counters";
import { eq, sql } from "drizzle-orm";

/**
 * What purging an account's old deletions does to its change feed, done by hand: every cursor
 * older than the account's latest write becomes 410 `cursor_expired`.
 */
export async function expireChangeCursors(db: Database, accountId: string): Promise<void> {
  await db
    .update(changeCounters)
    .set({ purgedThrough: sql`${changeCounters.lastChange}` })
    .where(eq(changeCounters.bankAccountId, accountId));
}
