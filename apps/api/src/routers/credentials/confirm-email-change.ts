import { confirmEmailChangeRoute } from "@allot/contract/credentials/routes";
import { confirmEmailChange } from "@allot/domain/credentials/confirm-email-change";
import { publicProcedureFor } from "../../trpc/trpc";

export const confirmEmailChangeProcedure = publicProcedureFor(confirmEmailChangeRoute).mutation(
  async ({ ctx, input }) => {
    await confirmEmailChange(ctx, input);
  },
);
