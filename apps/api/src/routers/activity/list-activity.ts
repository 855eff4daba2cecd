import { listActivityRoute } from "@allot/contract/activity/routes";
import { listActivity } from "@allot/domain/activity/list-activity";
import { toPage } from "../../http/page-links";
import { procedureFor } from "../../trpc/trpc";

export const listActivityProcedure = procedureFor(listActivityRoute).query(async ({ ctx, input }) =>
  toPage(ctx.http.request, await listActivity(ctx, input)),
);
