import type { RouteInput } from "@allot/contract/http/route";
import type { declineInvitationRoute } from "@allot/contract/invitations/routes";
import { invitations } from "@allot/db/schema/invitations";
import { eq } from "drizzle-orm";
import type { PublicContext } from "../shared/use-case-context";
import { actOnPendingInvitation } from "./act-on-invitation";
import { bySecret } from "./invitation-secret";
import { notifyInviter } from "./notify-inviter";

/**
 * Declines an invitation (public: the secret mailed to the invitee is the credential) and notifies the inviter. A
 * placeholder user made for the invitation stays, inactive: other invitations may point at it.
 */
export async function declineInvitation(
  { db, now }: PublicContext,
  { token: secret }: RouteInput<typeof declineInvitationRoute>,
) {
  await actOnPendingInvitation(db, bySecret(secret), now, async (tx, invitation) => {
    await tx
      .update(invitations)
      .set({ status: "declined", declinedAt: now, modifiedAt: now })
      .where(eq(invitations.id, invitation.id));
    await notifyInviter(tx, invitation, "invitation_declined");
  });
}
