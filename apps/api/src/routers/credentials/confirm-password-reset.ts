import { confirmPasswordResetRoute } from "@allot/contract/credentials/routes";
import { confirmPasswordReset } from "@allot/domain/credentials/confirm-password-reset";
import { publicProcedureFor } from "../../trpc/trpc";

export const confirmPasswordResetProcedure = publicProcedureFor(confirmPasswordResetRoute).mutation(
  async ({ ctx, input }) => {
    await confirmPasswordReset(ctx, input);
  },
);
