import { declineInvitationRoute } from "@allot/contract/invitations/routes";
import { declineInvitation } from "@allot/domain/invitations/decline-invitation";
import { procedureFor } from "../../trpc/trpc";

export const declineInvitationProcedure = procedureFor(declineInvitationRoute).mutation(({ ctx, input }) =>
  declineInvitation(ctx.db, input.token),
);
