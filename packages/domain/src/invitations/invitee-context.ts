import type { Tx } from "@allot/db/create-database";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import type { PublicContext, UseCaseContext } from "../shared/use-case-context";

/**
 * The context an answer to an invitation is recorded under: the invitee's, whose mailed secret is
 * the credential (whoever else may be signed in), so the trail names them as a `user`.
 */
export const inviteeContext = (
  { db, request, now, services }: PublicContext,
  invitee: { id: number; username: string; isStaff: boolean },
): UseCaseContext => ({
  db,
  request,
  now,
  services,
  actor: {
    userId: invitee.id,
    username: invitee.username,
    isStaff: invitee.isStaff,
    credential: "session",
    sessionId: null,
    apiKey: null,
  },
});

/** The invitee of an invitation, as its answer is recorded under them. */
export async function findInvitee(tx: Tx, invitation: { inviteeId: number }) {
  const [invitee] = await tx
    .select({ id: users.id, username: users.username, isStaff: users.isStaff })
    .from(users)
    .where(eq(users.id, invitation.inviteeId));
  if (!invitee) throw new Error("invitee vanished under a locked invitation");
  return invitee;
}
