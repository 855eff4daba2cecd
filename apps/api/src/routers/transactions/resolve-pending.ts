import { resolvePendingRoute } from "@allot/contract/transactions/routes";
import { resolvePending } from "@allot/domain/transactions/resolve-pending";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const resolvePendingProcedure = procedureFor(resolvePendingRoute).mutation(
  ({ ctx, input: { id, ...fields } }) => resolvePending(ctx.db, actorOf(ctx), id, fields),
);
