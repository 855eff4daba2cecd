import { declineInvitationRoute } from "@allot/contract/invitations/routes";
import { declineInvitation } from "@allot/domain/invitations/decline-invitation";
import { publicProcedureFor } from "../../trpc/trpc";

export const declineInvitationProcedure = publicProcedureFor(declineInvitationRoute).mutation(
  ({ ctx, input }) => declineInvitation(ctx, input),
);
