import { listMyInvitationsRoute } from "@allot/contract/invitations/routes";
import { listMyInvitations } from "@allot/domain/invitations/list-my-invitations";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const listMyInvitationsProcedure = procedureFor(listMyInvitationsRoute).query(({ ctx }) =>
  listMyInvitations(ctx.db, actorOf(ctx)),
);
