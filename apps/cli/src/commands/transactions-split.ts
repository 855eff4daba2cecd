import { UsageError } from "../output";

/** One `budget=amount` of `allot transactions split --into`: the budget as typed, a positive amount. */
export interface SplitPair {
  budget: string;
  amount: string;
}

// Positive magnitudes only: the API gives every split the transaction's own sign.
const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;
const normalise = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * `groceries=60 "eating out=12.50"` as pairs, every one checked before any request: a bad pair is
 * a usage error that names it. The amount follows the last `=`, so a budget name may hold one.
 */
export function parseSplitPairs(words: readonly string[]): SplitPair[] {
  const pairs: SplitPair[] = [];
  const seen = new Set<string>();
  for (const word of words) {
    const at = word.lastIndexOf("=");
    const budget = at < 0 ? "" : word.slice(0, at).trim();
    const amount = at < 0 ? "" : word.slice(at + 1).trim();
    if (!budget || !amount)
      throw new UsageError(
        `'${word}' is not a BUDGET=AMOUNT pair: write e.g. --into groceries=60 rent=20.`,
        "invalid_split",
      );
    if (!AMOUNT.test(amount) || /^[0.]+$/.test(amount))
      throw new UsageError(
        `'${word}': the amount must be positive, up to 2 decimals (e.g. ${budget}=60.50); the transaction's sign is applied for you.`,
        "invalid_split",
      );
    if (seen.has(normalise(budget)))
      throw new UsageError(
        `'${budget}' is named twice in --into: give each budget once, with its whole amount.`,
        "invalid_split",
      );
    seen.add(normalise(budget));
    pairs.push({ budget, amount });
  }
  return pairs;
}
