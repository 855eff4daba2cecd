import { getMeRoute } from "@allot/contract/users/routes";
import { getMe } from "@allot/domain/users/get-user";
import { procedureFor } from "../../trpc/trpc";

export const getMeProcedure = procedureFor(getMeRoute).query(({ ctx }) =>
  getMe(ctx, { publicBaseUrl: ctx.config.publicBaseUrl }),
);
