import { budgetRoutes } from "@allot/contract/budgets/routes";
import { archiveBudget } from "@allot/domain/budgets/archive-budget";
import { createBudget } from "@allot/domain/budgets/create-budget";
import { deleteBudget } from "@allot/domain/budgets/delete-budget";
import { getBudget } from "@allot/domain/budgets/get-budget";
import { listBudgets } from "@allot/domain/budgets/list-budgets";
import { updateBudget } from "@allot/domain/budgets/update-budget";
import { bindRoutes, paged } from "../../trpc/bind-routes";

/** The budgets routes, each bound to its use case, in the contract's order. */
export const budgetsRouter = bindRoutes(budgetRoutes, {
  list: paged(listBudgets),
  create: createBudget,
  get: getBudget,
  replace: updateBudget,
  update: updateBudget,
  delete: deleteBudget,
  archive: archiveBudget,
});
