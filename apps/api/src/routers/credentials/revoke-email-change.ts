import { revokeEmailChangeRoute } from "@allot/contract/credentials/routes";
import { revokeEmailChange } from "@allot/domain/credentials/revoke-email-change";
import { publicProcedureFor } from "../../trpc/trpc";

export const revokeEmailChangeProcedure = publicProcedureFor(revokeEmailChangeRoute).mutation(
  async ({ ctx, input }) => {
    await revokeEmailChange(ctx, input, { publicBaseUrl: ctx.config.publicBaseUrl, vault: ctx.vault });
  },
);
