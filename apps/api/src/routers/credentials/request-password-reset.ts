import { requestPasswordResetRoute } from "@allot/contract/credentials/routes";
import { requestPasswordReset } from "@allot/domain/credentials/request-password-reset";
import { procedureFor } from "../../trpc/trpc";

export const requestPasswordResetProcedure = procedureFor(requestPasswordResetRoute).mutation(
  async ({ ctx, input }) => {
    await requestPasswordReset(ctx.db, input.email);
  },
);
