import { router } from "../../trpc/trpc";
import { fundingEventDatesProcedure } from "./funding-event-dates";
import { fundingSummaryProcedure } from "./funding-summary";
import { runFundingProcedure } from "./run-funding";

/** The account-level funding procedures, in the contract's order. */
export const fundingRouter = router({
  run: runFundingProcedure,
  eventDates: fundingEventDatesProcedure,
  summary: fundingSummaryProcedure,
});
