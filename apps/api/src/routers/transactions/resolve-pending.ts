import { resolvePendingRoute } from "@allot/contract/transactions/routes";
import { resolvePending } from "@allot/domain/transactions/resolve-pending";
import { procedureFor } from "../../trpc/trpc";

export const resolvePendingProcedure = procedureFor(resolvePendingRoute).mutation(({ ctx, input }) =>
  resolvePending(ctx, input, ctx.config),
);
