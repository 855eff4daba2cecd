import { listAccountInvitationsRoute } from "@allot/contract/invitations/routes";
import { listAccountInvitations } from "@allot/domain/invitations/list-account-invitations";
import { procedureFor } from "../../trpc/trpc";

export const listAccountInvitationsProcedure = procedureFor(listAccountInvitationsRoute).query(
  ({ ctx, input }) => listAccountInvitations(ctx, input),
);
