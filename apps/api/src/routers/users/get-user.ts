import { getUserRoute } from "@allot/contract/users/routes";
import { getUserByUsername } from "@allot/domain/users/get-user";
import { procedureFor } from "../../trpc/trpc";

export const getUserProcedure = procedureFor(getUserRoute).query(({ ctx, input }) =>
  getUserByUsername(ctx.db, input.username, ctx.config.publicBaseUrl),
);
