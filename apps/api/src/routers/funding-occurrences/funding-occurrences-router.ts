import { router } from "../../trpc/trpc";
import { getFundingOccurrenceProcedure } from "./get-funding-occurrence";
import { listFundingOccurrencesProcedure } from "./list-funding-occurrences";

/** The funding-occurrences procedures, in the contract's order (read-only: the engine writes them). */
export const fundingOccurrencesRouter = router({
  list: listFundingOccurrencesProcedure,
  get: getFundingOccurrenceProcedure,
});
