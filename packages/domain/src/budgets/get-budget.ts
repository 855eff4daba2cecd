import type { Database } from "@allot/db/create-database";
import type { Actor } from "../shared/actor";
import { loadBudgetViews } from "./budget-view";
import { findOwnedBudget } from "./find-owned-budget";

export async function getBudget(db: Database, actor: Actor, id: string) {
  const row = await findOwnedBudget(db, actor, id);
  const [view] = await loadBudgetViews(db, [row]);
  if (!view) throw new Error("budget view missing");
  return view;
}
