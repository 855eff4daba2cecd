import { fundingSummaryRoute } from "@allot/contract/funding/routes";
import { fundingSummary } from "@allot/domain/funding/funding-summary";
import { procedureFor } from "../../trpc/trpc";

export const fundingSummaryProcedure = procedureFor(fundingSummaryRoute).query(({ ctx, input }) =>
  fundingSummary(ctx, input),
);
