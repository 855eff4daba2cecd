import { getUserRoute } from "@allot/contract/users/routes";
import { getUser } from "@allot/domain/users/get-user";
import { procedureFor } from "../../trpc/trpc";

export const getUserProcedure = procedureFor(getUserRoute).query(({ ctx, input }) =>
  getUser(ctx, input, { publicBaseUrl: ctx.config.publicBaseUrl }),
);
