import type { Database, Tx } from "@allot/db/create-database";
import { invitations } from "@allot/db/schema/invitations";
import { and, eq, lte, type SQL } from "drizzle-orm";
import type { PublicContext } from "../shared/use-case-context";

/** Condition on `invitations`: pending, and past its expiry at `now`. */
export const dueForExpiry = (now: Date): SQL =>
  and(eq(invitations.status, "pending"), lte(invitations.expiresAt, now)) as SQL;

/** Marks the invitations matching the condition expired if they are due; how many were. */
export async function expireInvitationsWhere(db: Database | Tx, condition: SQL | undefined, now: Date) {
  const expired = await db
    .update(invitations)
    .set({ status: "expired" })
    .where(and(dueForExpiry(now), condition))
    .returning({ id: invitations.id });
  return expired.length;
}

/**
 * The scheduler's job: every pending invitation past its expiry becomes expired. Use is not
 * waiting for it: reading, accepting or declining one treats it as expired already.
 */
export async function expireDueInvitations({ db, now }: PublicContext) {
  return { expired: await expireInvitationsWhere(db, undefined, now) };
}
