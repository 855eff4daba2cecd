import { fundingRoutes } from "@allot/contract/funding/routes";
import { fundingSummary } from "@allot/domain/budgets/funding-summary";
import { fundingEventDates } from "@allot/domain/funding/funding-event-dates";
import { runFunding } from "@allot/domain/funding/run-funding";
import { bindRoutes } from "../../trpc/bind-routes";

/** The account-level funding routes, each bound to its use case, in the contract's order. */
export const fundingRouter = bindRoutes(fundingRoutes, {
  run: runFunding,
  eventDates: fundingEventDates,
  summary: fundingSummary,
});
