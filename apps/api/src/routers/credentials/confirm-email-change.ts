import { confirmEmailChangeRoute } from "@allot/contract/credentials/routes";
import { confirmEmailChange } from "@allot/domain/credentials/confirm-email-change";
import { procedureFor } from "../../trpc/trpc";

export const confirmEmailChangeProcedure = procedureFor(confirmEmailChangeRoute).mutation(
  async ({ ctx, input }) => {
    await confirmEmailChange(ctx.db, input.token);
  },
);
