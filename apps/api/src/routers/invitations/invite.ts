import { inviteRoute } from "@allot/contract/invitations/routes";
import { inviteToAccount } from "@allot/domain/invitations/invite-to-account";
import { procedureFor } from "../../trpc/trpc";

export const inviteProcedure = procedureFor(inviteRoute).mutation(({ ctx, input }) =>
  inviteToAccount(ctx, input, { publicBaseUrl: ctx.config.publicBaseUrl, vault: ctx.vault }),
);
