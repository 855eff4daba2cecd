import { getAllocationRoute } from "@allot/contract/allocations/routes";
import { getAllocation } from "@allot/domain/allocations/get-allocation";
import { procedureFor } from "../../trpc/trpc";

export const getAllocationProcedure = procedureFor(getAllocationRoute).query(({ ctx, input }) =>
  getAllocation(ctx, input),
);
