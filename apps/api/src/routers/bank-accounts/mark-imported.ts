import { markImportedRoute } from "@allot/contract/bank-accounts/routes";
import { markImported } from "@allot/domain/bank-accounts/mark-imported";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const markImportedProcedure = procedureFor(markImportedRoute).mutation(({ ctx, input }) =>
  markImported(ctx.db, actorOf(ctx), input.id, input.last_posted_through),
);
