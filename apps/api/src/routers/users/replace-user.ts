import { replaceUserRoute } from "@allot/contract/users/routes";
import { updateUserByUsername } from "@allot/domain/users/update-user";
import { procedureFor } from "../../trpc/trpc";

export const replaceUserProcedure = procedureFor(replaceUserRoute).mutation(
  ({ ctx, input: { username, ...changes } }) =>
    updateUserByUsername(ctx.db, username, changes, ctx.config.publicBaseUrl),
);
