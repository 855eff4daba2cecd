import { webhookDeliveries } from "@allot/db/schema/webhooks";
import { and, inArray, lt, ne } from "drizzle-orm";
import type { PublicContext } from "../shared/use-case-context";

/** Finished deliveries are listed this long (time to notice a failure and redeliver it). */
export const DELIVERY_RETENTION_DAYS = 30;

// One statement deletes at most this many, so a first purge holds no long lock.
const BATCH = 5_000;

/** Deletes succeeded and failed deliveries older than the retention (a daily job); answers how many. */
export async function purgeOldDeliveries({ db, now }: PublicContext): Promise<number> {
  const d = webhookDeliveries;
  const cutoff = new Date(now.getTime() - DELIVERY_RETENTION_DAYS * 86_400_000);
  let total = 0;
  for (;;) {
    const old = db
      .select({ id: d.id })
      .from(d)
      .where(and(lt(d.createdAt, cutoff), ne(d.status, "pending")))
      .limit(BATCH);
    const deleted = await db.delete(d).where(inArray(d.id, old)).returning({ id: d.id });
    total += deleted.length;
    if (deleted.length < BATCH) return total;
  }
}
