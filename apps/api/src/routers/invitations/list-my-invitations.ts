import { listMyInvitationsRoute } from "@allot/contract/invitations/routes";
import { listMyInvitations } from "@allot/domain/invitations/list-my-invitations";
import { procedureFor } from "../../trpc/trpc";

export const listMyInvitationsProcedure = procedureFor(listMyInvitationsRoute).query(({ ctx, input }) =>
  listMyInvitations(ctx, input),
);
