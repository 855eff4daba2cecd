import { acceptInvitationRoute } from "@allot/contract/invitations/routes";
import { acceptInvitation } from "@allot/domain/invitations/accept-invitation";
import { publicProcedureFor } from "../../trpc/trpc";

export const acceptInvitationProcedure = publicProcedureFor(acceptInvitationRoute).mutation(
  ({ ctx, input }) =>
    acceptInvitation(ctx, input, { publicBaseUrl: ctx.config.publicBaseUrl, vault: ctx.vault }),
);
