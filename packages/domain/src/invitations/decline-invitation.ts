import type { Database } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { invitations } from "@allot/db/schema/invitations";
import { eq } from "drizzle-orm";
import { notifyUser } from "../notifications/record-notification";
import { actOnPendingInvitation } from "./act-on-invitation";

/**
 * Declines an invitation (public: the token is the credential) and notifies the inviter. A
 * placeholder user made for the invitation stays, inactive: other invitations may point at it.
 */
export async function declineInvitation(db: Database, token: string, now = new Date()) {
  await actOnPendingInvitation(db, eq(invitations.token, token), now, async (tx, invitation) => {
    await tx
      .update(invitations)
      .set({ status: "declined", declinedAt: now, modifiedAt: now })
      .where(eq(invitations.id, invitation.id));
    const [account] = await tx
      .select({ name: bankAccounts.name })
      .from(bankAccounts)
      .where(eq(bankAccounts.id, invitation.bankAccountId));
    await notifyUser(
      tx,
      invitation.inviterId,
      "invitation_declined",
      {
        invitation: invitation.id,
        invitee_email: invitation.inviteeEmail,
        bank_account_name: account?.name ?? "",
      },
      invitation.bankAccountId,
    );
  });
}
