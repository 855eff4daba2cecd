import { acceptInvitationRoute } from "@allot/contract/invitations/routes";
import { acceptInvitation } from "@allot/domain/invitations/accept-invitation";
import { procedureFor } from "../../trpc/trpc";

export const acceptInvitationProcedure = procedureFor(acceptInvitationRoute).mutation(({ ctx, input }) =>
  acceptInvitation(ctx.db, input.token, { publicBaseUrl: ctx.config.publicBaseUrl }),
);
