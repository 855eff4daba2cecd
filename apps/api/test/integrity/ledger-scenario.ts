import type { ModelTransaction } from "./ledger-model";

/* The account both ledger integrity tests drive over HTTP: its opening balance, the categories its transactions carry, its calendar. */

export const OPENING = 100_000n; // cents

/**
 * Global base categories a transaction may carry: budgets list the first three in auto_spend (one
 * budget listing a category routes posted spend in it; two listing it route nothing), the last is
 * never listed.
 */
export const CATEGORIES = [
  "Food & Drink : Groceries",
  "Home : Rent",
  "Food & Drink : Restaurants",
  "Food & Drink : Coffee Shops",
] as const;

export const dateOf = (day: number, minute = 0) =>
  new Date(Date.UTC(2026, 0, 1) + day * 86_400_000 + minute * 60_000).toISOString();

/** A transaction as a test knows it: the model's view plus its date. */
export interface LiveTransaction extends ModelTransaction {
  date: string;
}
