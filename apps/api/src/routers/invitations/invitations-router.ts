import { router } from "../../trpc/trpc";
import { acceptInvitationProcedure } from "./accept-invitation";
import { cancelInvitationProcedure } from "./cancel-invitation";
import { declineInvitationProcedure } from "./decline-invitation";
import { getInvitationProcedure } from "./get-invitation";
import { inviteProcedure } from "./invite";
import { listAccountInvitationsProcedure } from "./list-account-invitations";
import { listMyInvitationsProcedure } from "./list-my-invitations";

/** The invitations procedures, in the contract's order. */
export const invitationsRouter = router({
  listForAccount: listAccountInvitationsProcedure,
  invite: inviteProcedure,
  cancel: cancelInvitationProcedure,
  listMine: listMyInvitationsProcedure,
  get: getInvitationProcedure,
  accept: acceptInvitationProcedure,
  decline: declineInvitationProcedure,
});
