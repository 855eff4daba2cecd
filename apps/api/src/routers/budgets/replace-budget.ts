import { replaceBudgetRoute } from "@allot/contract/budgets/routes";
import { updateBudget } from "@allot/domain/budgets/update-budget";
import { procedureFor } from "../../trpc/trpc";

export const replaceBudgetProcedure = procedureFor(replaceBudgetRoute).mutation(({ ctx, input }) =>
  updateBudget(ctx, input),
);
