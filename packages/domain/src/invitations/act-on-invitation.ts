import type { Database, Tx } from "@allot/db/create-database";
import { invitations } from "@allot/db/schema/invitations";
import { eq, type SQL } from "drizzle-orm";
import { NotFound, ValidationFailed } from "../shared/errors";
import { expireInvitationsWhere } from "./expire-invitations";
import { closedInvitationMessage, effectiveStatus } from "./invitation-status";

export type InvitationRow = typeof invitations.$inferSelect;

export const INVITATION_NOT_FOUND = "No invitation matches the given token.";

/**
 * Runs `act` on a pending invitation, its row locked `FOR UPDATE` until the change commits: of two
 * requests at once, the second waits and then finds it no longer pending (so accepting twice adds
 * one owner). `guard` runs first (who may act). No row: 404. Not pending: 400, and one found past
 * its expiry is marked expired — committed before the 400 is thrown, which a throw inside the
 * transaction would roll back.
 */
export async function actOnPendingInvitation<T>(
  db: Database,
  where: SQL,
  now: Date,
  act: (tx: Tx, invitation: InvitationRow) => Promise<T>,
  guard: (invitation: InvitationRow) => void = () => undefined,
): Promise<T> {
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(invitations).where(where).for("update").limit(1);
    if (!row) return { refusal: new NotFound(INVITATION_NOT_FOUND) };
    guard(row);
    const refusal = closedInvitationMessage(effectiveStatus(row, now));
    if (refusal) {
      await expireInvitationsWhere(tx, eq(invitations.id, row.id), now);
      return { refusal: ValidationFailed.general(refusal) };
    }
    return { value: await act(tx, row) };
  });
  if ("refusal" in outcome) throw outcome.refusal;
  return outcome.value;
}
