import { getAllocationRoute } from "@allot/contract/allocations/routes";
import { getAllocation } from "@allot/domain/allocations/get-allocation";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const getAllocationProcedure = procedureFor(getAllocationRoute).query(({ ctx, input }) =>
  getAllocation(ctx.db, actorOf(ctx), input.id),
);
