import { listAllocationsRoute } from "@allot/contract/allocations/routes";
import { listAllocations } from "@allot/domain/allocations/list-allocations";
import { toPage } from "../../http/page-links";
import { procedureFor } from "../../trpc/trpc";

export const listAllocationsProcedure = procedureFor(listAllocationsRoute).query(async ({ ctx, input }) =>
  toPage(ctx.http.request, await listAllocations(ctx, input)),
);
