import { formatMoney, toMoney } from "@allot/contract/money";

/** Computed available − the bank's ending balance, two decimals; null when they agree. */
export function balanceMismatch(computedAvailable: string, endingBalance: string): string | null {
  const difference = toMoney(computedAvailable).minus(toMoney(endingBalance));
  return difference.eq(0) ? null : formatMoney(difference);
}
