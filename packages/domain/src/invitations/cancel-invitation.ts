import type { RouteInput } from "@allot/contract/http/route";
import type { invitationRoutes } from "@allot/contract/invitations/routes";
import { invitations } from "@allot/db/schema/invitations";
import { and, eq, type SQL } from "drizzle-orm";
import { findOwnedAccount } from "../account-access/find-owned-account";
import { writeAccount } from "../account-access/write-account";
import { Forbidden } from "../shared/errors";
import { insideTransaction, type UseCaseContext } from "../shared/use-case-context";
import { actOnPendingInvitation } from "./act-on-invitation";

/**
 * Cancels a pending invitation of the account. Someone else's account, or a token of another
 * account: 404. A co-owner who is not the inviter: 403. Not pending any more: 400.
 */
export async function cancelInvitation(
  ctx: UseCaseContext,
  { id: accountId, token }: RouteInput<typeof invitationRoutes.cancel>,
) {
  const { db, actor, now } = ctx;
  const account = await findOwnedAccount(db, actor, accountId);
  const where = and(eq(invitations.token, token), eq(invitations.bankAccountId, account.id)) as SQL;
  await actOnPendingInvitation(
    db,
    where,
    now,
    (tx, invitation) =>
      writeAccount(insideTransaction(ctx, tx), { accountId: account.id, owner: actor }, async (tx) => {
        await tx
          .update(invitations)
          .set({ status: "cancelled", cancelledAt: now, modifiedAt: now })
          .where(eq(invitations.id, invitation.id));
        return {
          event: {
            accountId: account.id,
            type: "invitation.cancelled",
            says: `cancelled the invitation of ${invitation.inviteeEmail}`,
            data: { invitation: invitation.id, invitee_email: invitation.inviteeEmail },
          },
          result: undefined,
        };
      }),
    (invitation) => {
      if (invitation.inviterId !== actor.userId)
        throw new Forbidden("Only the user who sent an invitation may cancel it.", "not_inviter");
    },
  );
}
