import { invitationRoutes } from "@allot/contract/invitations/routes";
import { acceptInvitation } from "@allot/domain/invitations/accept-invitation";
import { cancelInvitation } from "@allot/domain/invitations/cancel-invitation";
import { declineInvitation } from "@allot/domain/invitations/decline-invitation";
import { getInvitation } from "@allot/domain/invitations/get-invitation";
import { inviteToAccount } from "@allot/domain/invitations/invite-to-account";
import { listAccountInvitations } from "@allot/domain/invitations/list-account-invitations";
import { listMyInvitations } from "@allot/domain/invitations/list-my-invitations";
import { bindRoutes } from "../../trpc/bind-routes";

/** The invitations routes, each bound to its use case, in the contract's order. */
export const invitationsRouter = bindRoutes(invitationRoutes, {
  listForAccount: listAccountInvitations,
  invite: inviteToAccount,
  cancel: cancelInvitation,
  listMine: listMyInvitations,
  get: getInvitation,
  accept: acceptInvitation,
  decline: declineInvitation,
});
