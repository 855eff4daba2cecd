import { replaceBudgetRoute } from "@allot/contract/budgets/routes";
import { updateBudget } from "@allot/domain/budgets/update-budget";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const replaceBudgetProcedure = procedureFor(replaceBudgetRoute).mutation(
  ({ ctx, input: { id, ...fields } }) => updateBudget(ctx.db, actorOf(ctx), id, fields),
);
