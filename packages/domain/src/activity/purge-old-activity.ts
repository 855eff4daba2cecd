import { accountEvents } from "@allot/db/schema/account-events";
import { inArray, lt } from "drizzle-orm";
import type { PublicContext } from "../shared/use-case-context";

/** docs/spec/extensions.md §3: events are kept at least this long. */
export const ACTIVITY_RETENTION_DAYS = 400;

// One statement deletes at most this many, so a first purge of a large trail holds no long lock.
const BATCH = 5_000;

/** Deletes events older than the retention (a daily job); answers how many. */
export async function purgeOldActivity({ db, now }: PublicContext): Promise<number> {
  const cutoff = new Date(now.getTime() - ACTIVITY_RETENTION_DAYS * 86_400_000);
  let total = 0;
  for (;;) {
    const old = db
      .select({ id: accountEvents.id })
      .from(accountEvents)
      .where(lt(accountEvents.occurredAt, cutoff))
      .limit(BATCH);
    const deleted = await db
      .delete(accountEvents)
      .where(inArray(accountEvents.id, old))
      .returning({ id: accountEvents.id });
    total += deleted.length;
    if (deleted.length < BATCH) return total;
  }
}
