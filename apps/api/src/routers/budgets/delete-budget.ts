import { deleteBudgetRoute } from "@allot/contract/budgets/routes";
import { deleteBudget } from "@allot/domain/budgets/delete-budget";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const deleteBudgetProcedure = procedureFor(deleteBudgetRoute).mutation(({ ctx, input }) =>
  deleteBudget(ctx.db, actorOf(ctx), input.id),
);
