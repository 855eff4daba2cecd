import { listBudgetsRoute } from "@allot/contract/budgets/routes";
import { listBudgets } from "@allot/domain/budgets/list-budgets";
import { toPage } from "../../http/page-links";
import { procedureFor } from "../../trpc/trpc";

export const listBudgetsProcedure = procedureFor(listBudgetsRoute).query(async ({ ctx, input }) =>
  toPage(ctx.http.request, await listBudgets(ctx, input)),
);
