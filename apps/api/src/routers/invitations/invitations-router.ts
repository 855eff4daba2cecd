import { invitationRoutes } from "@allot/contract/invitations/routes";
import { acceptInvitation } from "@allot/domain/invitations/accept-invitation";
import { cancelInvitation } from "@allot/domain/invitations/cancel-invitation";
import { declineInvitation } from "@allot/domain/invitations/decline-invitation";
import { getInvitation } from "@allot/domain/invitations/get-invitation";
import { inviteToAccount } from "@allot/domain/invitations/invite-to-account";
import { listAccountInvitations } from "@allot/domain/invitations/list-account-invitations";
import { listMyInvitations } from "@allot/domain/invitations/list-my-invitations";
import { bindRoutes, withServices } from "../../trpc/bind-routes";
import { emailedLinks } from "../use-case-services";

/** The invitations routes, each bound to its use case, in the contract's order. */
export const invitationsRouter = bindRoutes(invitationRoutes, {
  listForAccount: listAccountInvitations,
  invite: withServices(inviteToAccount, emailedLinks),
  cancel: cancelInvitation,
  listMine: listMyInvitations,
  get: getInvitation,
  accept: withServices(acceptInvitation, emailedLinks),
  decline: declineInvitation,
});
