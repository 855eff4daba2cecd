import { getInvitationRoute } from "@allot/contract/invitations/routes";
import { getInvitation } from "@allot/domain/invitations/get-invitation";
import { procedureFor } from "../../trpc/trpc";

export const getInvitationProcedure = procedureFor(getInvitationRoute).query(({ ctx, input }) =>
  getInvitation(ctx.db, input.token),
);
