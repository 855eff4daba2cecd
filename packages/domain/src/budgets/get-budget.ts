import type { Database } from "@allot/db/create-database";
import type { Actor } from "../shared/actor";
import { loadBudgetView } from "./budget-view";
import { findOwnedBudget } from "./find-owned-budget";

export async function getBudget(db: Database, actor: Actor, id: string) {
  return loadBudgetView(db, await findOwnedBudget(db, actor, id));
}
