import { router } from "../../trpc/trpc";
import { getAllocationProcedure } from "./get-allocation";
import { listAllocationsProcedure } from "./list-allocations";

/** The allocations procedures (read-only), in the contract's order. */
export const allocationsRouter = router({
  list: listAllocationsProcedure,
  get: getAllocationProcedure,
});
