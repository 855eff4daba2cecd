import { cancelInvitationRoute } from "@allot/contract/invitations/routes";
import { cancelInvitation } from "@allot/domain/invitations/cancel-invitation";
import { procedureFor } from "../../trpc/trpc";

export const cancelInvitationProcedure = procedureFor(cancelInvitationRoute).mutation(({ ctx, input }) =>
  cancelInvitation(ctx, input),
);
