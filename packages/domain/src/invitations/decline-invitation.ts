import type { RouteInput } from "@allot/contract/http/route";
import type { declineInvitationRoute } from "@allot/contract/invitations/routes";
import { invitations } from "@allot/db/schema/invitations";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import { recordEvent } from "../activity/record-event";
import type { PublicContext } from "../shared/use-case-context";
import { actOnPendingInvitation } from "./act-on-invitation";
import { bySecret } from "./invitation-secret";
import { inviteeContext } from "./invitee-context";
import { notifyInviter } from "./notify-inviter";

/**
 * Declines an invitation (public: the secret mailed to the invitee is the credential) and notifies the inviter. A
 * placeholder user made for the invitation stays, inactive: other invitations may point at it.
 */
export async function declineInvitation(
  ctx: PublicContext,
  { token: secret }: RouteInput<typeof declineInvitationRoute>,
) {
  const { db, now } = ctx;
  await actOnPendingInvitation(db, bySecret(secret), now, async (tx, invitation) => {
    await tx
      .update(invitations)
      .set({ status: "declined", declinedAt: now, modifiedAt: now })
      .where(eq(invitations.id, invitation.id));
    await notifyInviter(tx, invitation, "invitation_declined");
    const [invitee] = await tx
      .select({ id: users.id, username: users.username, isStaff: users.isStaff })
      .from(users)
      .where(eq(users.id, invitation.inviteeId));
    if (!invitee) throw new Error("invitee vanished under a locked invitation");
    await recordEvent(tx, inviteeContext(ctx, invitee), {
      accountId: invitation.bankAccountId,
      type: "invitation.declined",
      says: "declined the invitation to co-own the account",
      data: { invitation: invitation.id, invitee_email: invitation.inviteeEmail },
    });
  });
}
