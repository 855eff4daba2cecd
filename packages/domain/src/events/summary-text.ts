import type Big from "big.js";
import { toMoney } from "../shared/money";

/** An amount as a summary writes it: two decimals and the currency, "50.00 USD". */
export const moneyText = (amount: string | Big, currency: string) =>
  `${toMoney(amount).toFixed(2)} ${currency}`;

/** Two-decimal strings for `data`, as the API writes amounts. */
export const moneyData = (amount: string | Big) => toMoney(amount).toFixed(2);

/** A count and its noun, singular for one: "1 budget", "3 budgets". */
export const countOf = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
