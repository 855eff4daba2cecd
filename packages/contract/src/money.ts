import Big from "big.js";

/*
 * Money in code is exact: a big.js decimal, never a JavaScript number. Rows (numeric(14,2)) and the
 * wire carry it as text with two fraction digits ("-12.50"). This file is the one place where that
 * text becomes Money and Money becomes text again, for the server (packages/domain) and the CLI
 * alike; `moneyInput` and `moneyOutput` (http/fields.ts) say which texts the wire accepts. See
 * docs/decisions/0069-money-type.md.
 */

/**
 * An exact amount of money, in cents. A name over Big rather than a brand: big.js answers Big from
 * every operation, so a brand would need a cast after each `plus` (decision 0069).
 */
export type Money = Big;

/**
 * Money from row or wire text (or a computed Big, such as a quotient), rounded half-up to cents.
 * Text that is not a decimal ("", "12,50", "NaN", " 1") throws, as big.js does.
 */
export const toMoney = (value: string | Big): Money => new Big(value).round(2, Big.roundHalfUp);

// Canonical two-decimal text (no leading zeros, no negative zero) passes through untouched.
const CANONICAL = /^(?:-?[1-9]\d*|0|-0(?=\.(?!00)))\.\d{2}$/;

/**
 * The row and wire text of an amount: exactly two fraction digits, half-up ("-12.50"), and zero
 * without a sign. numeric(14,2) text is already in this form and is returned as it is.
 */
export function formatMoney(value: string | Money): string {
  if (typeof value === "string" && CANONICAL.test(value)) return value;
  const text = (typeof value === "string" ? new Big(value) : value).toFixed(2, Big.roundHalfUp);
  // big.js keeps the sign of a value that rounds to zero ("-0.001" → "-0.00").
  return text === "-0.00" ? "0.00" : text;
}

export const ZERO: Money = new Big(0);

/** The total of some amounts (row text or Money); ZERO for none. */
export function sumMoney(amounts: Iterable<Money | string>): Money {
  let total = ZERO;
  for (const amount of amounts) total = total.plus(amount);
  return total;
}

/** Adds an amount to the running total kept under `key` (starting from zero). */
export const addToTotal = <K>(totals: Map<K, Money>, key: K, amount: Money | string) =>
  totals.set(key, (totals.get(key) ?? ZERO).plus(amount));

/** The smaller of two amounts. */
export const minMoney = (a: Money, b: Money): Money => (a.lt(b) ? a : b);

/**
 * An exact decimal that is not money (a share in percent, a count, text compared as a number):
 * never rounded to cents, and named so a reader does not take it for an amount. A number must be a
 * whole one (a count): a fraction in a float is already inexact.
 */
export function decimal(value: string | number): Big {
  if (typeof value === "number" && !Number.isSafeInteger(value))
    throw new TypeError(`decimal(${value}): only whole numbers are exact as JavaScript numbers`);
  return new Big(value);
}
