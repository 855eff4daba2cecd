import { requestPasswordResetRoute } from "@allot/contract/credentials/routes";
import { requestPasswordReset } from "@allot/domain/credentials/request-password-reset";
import { publicProcedureFor } from "../../trpc/trpc";

export const requestPasswordResetProcedure = publicProcedureFor(requestPasswordResetRoute).mutation(
  async ({ ctx, input }) => {
    await requestPasswordReset(ctx, input);
  },
);
