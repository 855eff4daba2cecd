import { fundingEventDatesRoute } from "@allot/contract/funding/routes";
import { fundingEventDates } from "@allot/domain/funding/funding-event-dates";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const fundingEventDatesProcedure = procedureFor(fundingEventDatesRoute).query(({ ctx, input }) =>
  fundingEventDates(ctx.db, actorOf(ctx), input.id, input.after, input.before),
);
