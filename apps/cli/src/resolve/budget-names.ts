import { budgetRoutes } from "@allot/contract/budgets/routes";
import { isUuid } from "@allot/contract/http/fields";
import type { Client } from "@allot/sdk/client";
import { UsageError } from "../output";

// Names compare like people read them: any case, runs of spaces as one.
const normalise = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * A budget of the account named by its id or its name (any case), so `--from Unallocated --to
 * Groceries` works. Archived budgets are only matched by id. An unknown or ambiguous name is a
 * usage error (exit 2) that lists what the account has.
 */
export async function resolveBudgetId(client: Client, accountId: string, nameOrId: string): Promise<string> {
  if (isUuid(nameOrId.trim())) return nameOrId.trim().toLowerCase();
  const budgets: { id: string; name: string }[] = [];
  for await (const budget of client.paginate(budgetRoutes.list, {
    bank_account: accountId,
    archived: false,
    page_size: 500,
  }))
    budgets.push(budget);
  const wanted = normalise(nameOrId);
  const matches = budgets.filter((budget) => normalise(budget.name) === wanted);
  if (matches.length === 1) return (matches[0] as { id: string }).id;
  const names = budgets.map((budget) => budget.name).join(", ");
  if (matches.length > 1)
    throw new UsageError(
      `Several budgets of the account are named '${nameOrId}': use its id.`,
      "ambiguous_budget",
    );
  throw new UsageError(
    `The account has no budget named '${nameOrId}'. Its budgets: ${names || "none"}.`,
    "unknown_budget",
  );
}
