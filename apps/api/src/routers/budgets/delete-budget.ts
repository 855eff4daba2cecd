import { deleteBudgetRoute } from "@allot/contract/budgets/routes";
import { deleteBudget } from "@allot/domain/budgets/delete-budget";
import { procedureFor } from "../../trpc/trpc";

export const deleteBudgetProcedure = procedureFor(deleteBudgetRoute).mutation(({ ctx, input }) =>
  deleteBudget(ctx, input),
);
