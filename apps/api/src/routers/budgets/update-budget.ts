import { updateBudgetRoute } from "@allot/contract/budgets/routes";
import { updateBudget } from "@allot/domain/budgets/update-budget";
import { procedureFor } from "../../trpc/trpc";

export const updateBudgetProcedure = procedureFor(updateBudgetRoute).mutation(({ ctx, input }) =>
  updateBudget(ctx, input),
);
