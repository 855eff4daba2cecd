import Big from "big.js";

// Half-up to cents everywhere: Big's rounding mode 1 is ROUND_HALF_UP.
Big.RM = Big.roundHalfUp;

/** Exact decimal from a wire or database string. */
export const toMoney = (value: string | Big): Big => new Big(value).round(2, Big.roundHalfUp);

/** The wire form: exactly two fraction digits ("-12.50"). */
export const formatMoney = (value: string | Big): string => new Big(value).toFixed(2, Big.roundHalfUp);

export const ZERO = new Big(0);
