import { getFundingOccurrenceRoute } from "@allot/contract/funding-occurrences/routes";
import { getFundingOccurrence } from "@allot/domain/funding-occurrences/get-funding-occurrence";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const getFundingOccurrenceProcedure = procedureFor(getFundingOccurrenceRoute).query(({ ctx, input }) =>
  getFundingOccurrence(ctx.db, actorOf(ctx), input.id),
);
