import { runFundingRoute } from "@allot/contract/funding/routes";
import { runFunding } from "@allot/domain/funding/run-funding";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const runFundingProcedure = procedureFor(runFundingRoute).mutation(({ ctx, input }) =>
  runFunding(ctx.db, actorOf(ctx), input.id, input.as_of),
);
