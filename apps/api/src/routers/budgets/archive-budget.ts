import { archiveBudgetRoute } from "@allot/contract/budgets/routes";
import { archiveBudget } from "@allot/domain/budgets/archive-budget";
import { procedureFor } from "../../trpc/trpc";

export const archiveBudgetProcedure = procedureFor(archiveBudgetRoute).mutation(({ ctx, input }) =>
  archiveBudget(ctx, input),
);
