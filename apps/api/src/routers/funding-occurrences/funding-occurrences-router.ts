import { fundingOccurrenceRoutes } from "@allot/contract/funding-occurrences/routes";
import { getFundingOccurrence } from "@allot/domain/funding-occurrences/get-funding-occurrence";
import { listFundingOccurrences } from "@allot/domain/funding-occurrences/list-funding-occurrences";
import { bindRoutes, paged } from "../../trpc/bind-routes";

/** The funding-occurrences routes, bound in the contract's order (read-only: the engine writes them). */
export const fundingOccurrencesRouter = bindRoutes(fundingOccurrenceRoutes, {
  list: paged(listFundingOccurrences),
  get: getFundingOccurrence,
});
