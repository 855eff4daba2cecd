import { changeEmailRoute } from "@allot/contract/credentials/routes";
import { requestEmailChange } from "@allot/domain/credentials/request-email-change";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const changeEmailProcedure = procedureFor(changeEmailRoute).mutation(async ({ ctx, input }) => {
  await requestEmailChange(ctx.db, actorOf(ctx), input.new_email, {
    publicBaseUrl: ctx.config.publicBaseUrl,
  });
});
