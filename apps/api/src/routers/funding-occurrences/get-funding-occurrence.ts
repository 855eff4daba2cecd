import { getFundingOccurrenceRoute } from "@allot/contract/funding-occurrences/routes";
import { getFundingOccurrence } from "@allot/domain/funding-occurrences/get-funding-occurrence";
import { procedureFor } from "../../trpc/trpc";

export const getFundingOccurrenceProcedure = procedureFor(getFundingOccurrenceRoute).query(({ ctx, input }) =>
  getFundingOccurrence(ctx, input),
);
