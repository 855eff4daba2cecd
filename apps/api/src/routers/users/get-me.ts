import { getMeRoute } from "@allot/contract/users/routes";
import { getUserById } from "@allot/domain/users/get-user";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const getMeProcedure = procedureFor(getMeRoute).query(({ ctx }) =>
  getUserById(ctx.db, actorOf(ctx).userId, ctx.config.publicBaseUrl),
);
