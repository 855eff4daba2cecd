import { runFundingRoute } from "@allot/contract/funding/routes";
import { runFunding } from "@allot/domain/funding/run-funding";
import { procedureFor } from "../../trpc/trpc";

export const runFundingProcedure = procedureFor(runFundingRoute).mutation(({ ctx, input }) =>
  runFunding(ctx, input),
);
