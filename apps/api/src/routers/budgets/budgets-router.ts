import { router } from "../../trpc/trpc";
import { archiveBudgetProcedure } from "./archive-budget";
import { createBudgetProcedure } from "./create-budget";
import { deleteBudgetProcedure } from "./delete-budget";
import { getBudgetProcedure } from "./get-budget";
import { listBudgetsProcedure } from "./list-budgets";
import { replaceBudgetProcedure } from "./replace-budget";
import { updateBudgetProcedure } from "./update-budget";

/** The budgets procedures, in the contract's order. */
export const budgetsRouter = router({
  list: listBudgetsProcedure,
  create: createBudgetProcedure,
  get: getBudgetProcedure,
  replace: replaceBudgetProcedure,
  update: updateBudgetProcedure,
  remove: deleteBudgetProcedure,
  archive: archiveBudgetProcedure,
});
