import { createBudgetRoute } from "@allot/contract/budgets/routes";
import { createBudget } from "@allot/domain/budgets/create-budget";
import { procedureFor } from "../../trpc/trpc";

export const createBudgetProcedure = procedureFor(createBudgetRoute).mutation(({ ctx, input }) =>
  createBudget(ctx, input),
);
