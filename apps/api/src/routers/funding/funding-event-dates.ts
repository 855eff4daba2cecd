import { fundingEventDatesRoute } from "@allot/contract/funding/routes";
import { fundingEventDates } from "@allot/domain/funding/funding-event-dates";
import { procedureFor } from "../../trpc/trpc";

export const fundingEventDatesProcedure = procedureFor(fundingEventDatesRoute).query(({ ctx, input }) =>
  fundingEventDates(ctx, input),
);
