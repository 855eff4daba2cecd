import { updateMeRoute } from "@allot/contract/users/routes";
import { updateUserById } from "@allot/domain/users/update-user";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const updateMeProcedure = procedureFor(updateMeRoute).mutation(({ ctx, input }) =>
  updateUserById(ctx.db, actorOf(ctx).userId, input, ctx.config.publicBaseUrl),
);
