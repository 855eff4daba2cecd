import { allocationRoutes } from "@allot/contract/allocations/routes";
import { getAllocation } from "@allot/domain/allocations/get-allocation";
import { listAllocations } from "@allot/domain/allocations/list-allocations";
import { bindRoutes, paged } from "../../trpc/bind-routes";

/** The allocations routes, each bound to its use case (read-only), in the contract's order. */
export const allocationsRouter = bindRoutes(allocationRoutes, {
  list: paged(listAllocations),
  get: getAllocation,
});
