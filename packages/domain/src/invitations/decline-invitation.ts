import type { RouteInput } from "@allot/contract/http/route";
import type { invitationRoutes } from "@allot/contract/invitations/routes";
import { invitations } from "@allot/db/schema/invitations";
import { eq } from "drizzle-orm";
import { writeAccount } from "../account-access/write-account";
import { insideTransaction, type PublicContext } from "../shared/use-case-context";
import { actOnPendingInvitation } from "./act-on-invitation";
import { bySecret } from "./invitation-secret";
import { findInvitee, inviteeContext } from "./invitee-context";

/**
 * Declines an invitation (public: the secret mailed to the invitee is the credential) and notifies the inviter. A
 * placeholder user made for the invitation stays, inactive: other invitations may point at it.
 */
export async function declineInvitation(
  ctx: PublicContext,
  { token: secret }: RouteInput<typeof invitationRoutes.decline>,
) {
  const { db, now } = ctx;
  await actOnPendingInvitation(db, bySecret(secret), now, async (tx, invitation) => {
    const asInvitee = inviteeContext(insideTransaction(ctx, tx), await findInvitee(tx, invitation));
    const target = { accountId: invitation.bankAccountId, owner: null };
    await writeAccount(asInvitee, target, async (tx, account) => {
      await tx
        .update(invitations)
        .set({ status: "declined", declinedAt: now, modifiedAt: now })
        .where(eq(invitations.id, invitation.id));
      return {
        event: {
          accountId: account.id,
          type: "invitation.declined",
          says: "declined the invitation to co-own the account",
          data: { invitation: invitation.id, invitee_email: invitation.inviteeEmail },
        },
        result: undefined,
      };
    });
  });
}
