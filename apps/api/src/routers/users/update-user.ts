import { updateUserRoute } from "@allot/contract/users/routes";
import { updateUserByUsername } from "@allot/domain/users/update-user";
import { procedureFor } from "../../trpc/trpc";

export const updateUserProcedure = procedureFor(updateUserRoute).mutation(
  ({ ctx, input: { username, ...changes } }) =>
    updateUserByUsername(ctx.db, username, changes, ctx.config.publicBaseUrl),
);
