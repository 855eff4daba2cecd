import { getBudgetRoute } from "@allot/contract/budgets/routes";
import { getBudget } from "@allot/domain/budgets/get-budget";
import { procedureFor } from "../../trpc/trpc";

export const getBudgetProcedure = procedureFor(getBudgetRoute).query(({ ctx, input }) =>
  getBudget(ctx, input),
);
