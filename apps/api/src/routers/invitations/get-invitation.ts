import { getInvitationRoute } from "@allot/contract/invitations/routes";
import { getInvitation } from "@allot/domain/invitations/get-invitation";
import { publicProcedureFor } from "../../trpc/trpc";

export const getInvitationProcedure = publicProcedureFor(getInvitationRoute).query(({ ctx, input }) =>
  getInvitation(ctx, input),
);
