import { replaceUserRoute } from "@allot/contract/users/routes";
import { updateUser } from "@allot/domain/users/update-user";
import { procedureFor } from "../../trpc/trpc";

export const replaceUserProcedure = procedureFor(replaceUserRoute).mutation(({ ctx, input }) =>
  updateUser(ctx, input, { publicBaseUrl: ctx.config.publicBaseUrl }),
);
