import type { PublicContext, UseCaseContext } from "../shared/use-case-context";

/**
 * The context an answer to an invitation is recorded under: the invitee's, whose mailed secret is
 * the credential (whoever else may be signed in), so the trail names them as a `user`.
 */
export const inviteeContext = (
  { db, request, now }: PublicContext,
  invitee: { id: number; username: string; isStaff: boolean },
): UseCaseContext => ({
  db,
  request,
  now,
  actor: {
    userId: invitee.id,
    username: invitee.username,
    isStaff: invitee.isStaff,
    credential: "session",
    sessionId: null,
    apiKey: null,
  },
});
