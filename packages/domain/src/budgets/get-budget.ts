import type { budgetRoutes } from "@allot/contract/budgets/routes";
import type { RouteInput } from "@allot/contract/http/route";
import type { UseCaseContext } from "../shared/use-case-context";
import { loadBudgetView } from "./budget-view";
import { findOwnedBudget } from "./find-owned-budget";

export async function getBudget({ db, actor }: UseCaseContext, { id }: RouteInput<typeof budgetRoutes.get>) {
  return loadBudgetView(db, await findOwnedBudget(db, actor, id));
}
