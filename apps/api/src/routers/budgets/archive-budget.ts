import { archiveBudgetRoute } from "@allot/contract/budgets/routes";
import { archiveBudget } from "@allot/domain/budgets/archive-budget";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const archiveBudgetProcedure = procedureFor(archiveBudgetRoute).mutation(({ ctx, input }) =>
  archiveBudget(ctx.db, actorOf(ctx), input.id),
);
