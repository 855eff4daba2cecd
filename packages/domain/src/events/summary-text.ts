import { formatMoney, type Money } from "@allot/contract/money";

/** An amount as a summary writes it: the wire's two decimals and the currency, "50.00 USD". */
export const moneyText = (amount: string | Money, currency: string) => `${formatMoney(amount)} ${currency}`;

/** A count and its noun, singular for one: "1 budget", "3 budgets". */
export const countOf = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
