import { updateMeRoute } from "@allot/contract/users/routes";
import { updateMe } from "@allot/domain/users/update-user";
import { procedureFor } from "../../trpc/trpc";

export const updateMeProcedure = procedureFor(updateMeRoute).mutation(({ ctx, input }) =>
  updateMe(ctx, input, { publicBaseUrl: ctx.config.publicBaseUrl }),
);
