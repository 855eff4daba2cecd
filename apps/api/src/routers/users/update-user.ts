import { updateUserRoute } from "@allot/contract/users/routes";
import { updateUser } from "@allot/domain/users/update-user";
import { procedureFor } from "../../trpc/trpc";

export const updateUserProcedure = procedureFor(updateUserRoute).mutation(({ ctx, input }) =>
  updateUser(ctx, input, { publicBaseUrl: ctx.config.publicBaseUrl }),
);
