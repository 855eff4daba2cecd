import Big from "big.js";

/** Exact decimal from a wire or database string. */
export const toMoney = (value: string | Big): Big => new Big(value).round(2, Big.roundHalfUp);

// Canonical two-decimal text (no leading zeros, no negative zero) passes through untouched.
const CANONICAL = /^(?:-?[1-9]\d*|0|-0(?=\.(?!00)))\.\d{2}$/;

/** The wire form: exactly two fraction digits ("-12.50"). numeric(14,2) text is already in it. */
export const formatMoney = (value: string | Big): string =>
  typeof value === "string" && CANONICAL.test(value) ? value : new Big(value).toFixed(2, Big.roundHalfUp);

export const ZERO = new Big(0);

/** The smaller of two amounts. */
export const minMoney = (a: Big, b: Big): Big => (a.lt(b) ? a : b);
