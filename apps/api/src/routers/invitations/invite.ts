import { inviteRoute } from "@allot/contract/invitations/routes";
import { inviteToAccount } from "@allot/domain/invitations/invite-to-account";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const inviteProcedure = procedureFor(inviteRoute).mutation(({ ctx, input }) =>
  inviteToAccount(
    ctx.db,
    actorOf(ctx),
    { accountId: input.id, email: input.invitee_email },
    { publicBaseUrl: ctx.config.publicBaseUrl },
  ),
);
