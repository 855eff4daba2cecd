import { idempotencyKeys } from "@allot/db/schema/idempotency-keys";
import { lte } from "drizzle-orm";
import type { PublicContext } from "../shared/use-case-context";

/** Deletes idempotency records past their TTL (an hourly job); answers how many. */
export async function purgeExpiredIdempotencyKeys({ db, now }: PublicContext): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.expiresAt, now))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}
