import { changeEmailRoute } from "@allot/contract/credentials/routes";
import { requestEmailChange } from "@allot/domain/credentials/request-email-change";
import { procedureFor } from "../../trpc/trpc";

export const changeEmailProcedure = procedureFor(changeEmailRoute).mutation(async ({ ctx, input }) => {
  await requestEmailChange(ctx, input, { publicBaseUrl: ctx.config.publicBaseUrl, vault: ctx.vault });
});
