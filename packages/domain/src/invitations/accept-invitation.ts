import type { RouteInput } from "@allot/contract/http/route";
import type { invitationRoutes } from "@allot/contract/invitations/routes";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { invitations } from "@allot/db/schema/invitations";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import { writeAccount } from "../account-access/write-account";
import { issuePasswordReset } from "../credentials/issue-password-reset";
import { stampAccount } from "../ledger/change-number";
import { insideTransaction, type PublicContext } from "../shared/use-case-context";
import { actOnPendingInvitation } from "./act-on-invitation";
import { bySecret } from "./invitation-secret";
import { findInvitee, inviteeContext } from "./invitee-context";

/**
 * Accepts an invitation (public: the secret mailed to the invitee is the credential): the invitee
 * becomes an owner of the account and the inviter is notified (from the event: events/account-notices.ts). An invitee without a usable password (a placeholder) is
 * activated and sent a password-reset email; acceptance itself never issues credentials. A user an
 * administrator deactivated who has a password stays inactive: a link holder cannot undo that.
 * The trail records two events under the invitee's name: `invitation.accepted` and
 * `bank_account.owner_added`.
 */
export async function acceptInvitation(
  ctx: PublicContext<"publicBaseUrl" | "vault">,
  { token: secret }: RouteInput<typeof invitationRoutes.accept>,
) {
  const { db, now, services } = ctx;
  await actOnPendingInvitation(db, bySecret(secret), now, async (tx, invitation) => {
    const asInvitee = inviteeContext(insideTransaction(ctx, tx), await findInvitee(tx, invitation));
    const target = { accountId: invitation.bankAccountId, owner: null };
    await writeAccount(asInvitee, target, async (tx, account) => {
      await tx
        .insert(bankAccountOwners)
        .values({ bankAccountId: account.id, userId: invitation.inviteeId, createdAt: now })
        .onConflictDoNothing();
      // The account's answer lists its owners.
      await stampAccount(tx, account.id);
      await tx
        .update(invitations)
        .set({ status: "accepted", acceptedAt: now, modifiedAt: now })
        .where(eq(invitations.id, invitation.id));

      const [invitee] = await tx.select().from(users).where(eq(users.id, invitation.inviteeId)).for("update");
      if (!invitee) throw new Error("invitee vanished under a locked invitation");
      if (invitee.passwordHash === null) {
        if (!invitee.isActive) await tx.update(users).set({ isActive: true }).where(eq(users.id, invitee.id));
        await issuePasswordReset(
          tx,
          { id: invitee.id, email: invitee.email },
          {
            publicBaseUrl: services.publicBaseUrl,
            vault: services.vault,
            reason: "invitation_accepted",
            now,
          },
        );
      }
      return {
        event: {
          accountId: account.id,
          type: "invitation.accepted",
          says: "accepted the invitation to co-own the account",
          data: { invitation: invitation.id, invitee_email: invitation.inviteeEmail },
        },
        alsoRecorded: {
          accountId: account.id,
          type: "bank_account.owner_added",
          says: "became an owner of the account",
          data: { bank_account: account.id, owner: invitee.username, invitation: invitation.id },
        },
        result: undefined,
      };
    });
  });
}
