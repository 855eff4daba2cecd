import { formatMoney, type Money, toMoney } from "@allot/contract/money";

/**
 * One posted row of the payload. The caller drops pending rows (their running balance is not part
 * of the bank's posted chain) and keeps each row's position in the submitted array as `index`.
 */
export interface PostedChainRow {
  index: number;
  amount: string;
  running_balance?: string | null;
}

// A report must never abort the import: text that is not a decimal just skips its pair.
const moneyOrNull = (value: string | null | undefined): Money | null => {
  if (value === null || value === undefined) return null;
  try {
    return toMoney(value);
  } catch {
    return null;
  }
};

/**
 * The bank's own chain, rows newest first: each newer running balance must equal the older one
 * plus the newer amount. One message per break; a pair where either balance is missing is skipped
 * (not bridged to the next row that has one).
 */
export function postingOrderMismatches(rows: readonly PostedChainRow[]): string[] {
  const messages: string[] = [];
  for (let i = 0; i + 1 < rows.length; i++) {
    const newer = rows[i] as PostedChainRow;
    const older = rows[i + 1] as PostedChainRow;
    const newerBalance = moneyOrNull(newer.running_balance);
    const olderBalance = moneyOrNull(older.running_balance);
    const amount = moneyOrNull(newer.amount);
    if (!newerBalance || !olderBalance || !amount) continue;
    const expected = olderBalance.plus(amount);
    if (expected.eq(newerBalance)) continue;
    messages.push(
      `transactions.${newer.index}: running balance ${formatMoney(newerBalance)} should be ` +
        `${formatMoney(olderBalance)} (running balance of transactions.${older.index}) + ` +
        `${formatMoney(amount)} = ${formatMoney(expected)}`,
    );
  }
  return messages;
}
