import { listUsersRoute } from "@allot/contract/users/routes";
import { listUsers } from "@allot/domain/users/list-users";
import { toPage } from "../../http/page-links";
import { procedureFor } from "../../trpc/trpc";

export const listUsersProcedure = procedureFor(listUsersRoute).query(async ({ ctx, input }) =>
  toPage(ctx.http.request, await listUsers(ctx, input, { publicBaseUrl: ctx.config.publicBaseUrl })),
);
