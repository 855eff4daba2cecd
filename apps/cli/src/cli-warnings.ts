import { budgetRoutes } from "@allot/contract/budgets/routes";
import { toMoney } from "@allot/contract/money";
import type { Client } from "@allot/sdk/client";
import { shown } from "./format/terminal-text";
import { printJson } from "./output";

/**
 * Warnings of the CLI's own about a write that went through (an overdrawn budget, a schedule that
 * will not run): for people, `warning:` lines on stderr; with --json, stderr stays for errors, so
 * they go in the answer instead, as a `warnings` array present only when there is one (decision 0055).
 */
export function printWarnings(warnings: readonly string[]): void {
  for (const warning of warnings) process.stderr.write(shown`warning: ${warning}\n`);
}

/** The API's object as JSON, with the CLI's warnings beside its fields when there are any. */
export function printJsonWithWarnings(answer: object, warnings: readonly string[]): void {
  printJson(warnings.length === 0 ? answer : { ...answer, warnings });
}

/** A budget's balance just after a write, as the API gave it (a decimal string). */
export interface BudgetBalance {
  name: string;
  balance: string;
  currency: string;
}

/** Below zero: compared exactly (the API's decimal string, never a float). */
const isOverdrawn = (balance: string): boolean => toMoney(balance).lt(0);

/**
 * The warnings for the budgets a write touched (allocations' budgets) that are below zero now: their
 * balance today, not the running one at a back-dated transaction's day.
 */
export async function overdraftsAfter(
  client: Client,
  touched: readonly { budget: string | null }[],
): Promise<string[]> {
  const ids = [...new Set(touched.flatMap((row) => (row.budget ? [row.budget] : [])))];
  const budgets = await Promise.all(ids.map((id) => client.call(budgetRoutes.get, { id })));
  return overdraftWarnings(
    budgets.map((budget) => ({
      name: budget.name,
      balance: budget.balance,
      currency: budget.balance_currency,
    })),
  );
}

/** One warning per budget the write left below zero (the API allows it), its balance as given. */
export function overdraftWarnings(balances: readonly BudgetBalance[]): string[] {
  return balances
    .filter((budget) => isOverdrawn(budget.balance))
    .map(
      (budget) =>
        `'${budget.name}' is overdrawn: its balance is now ${budget.balance} ${budget.currency}. Move money into it with \`allot transfer AMOUNT --from BUDGET --to '${budget.name}'\`.`,
    );
}
