import { ValidationFailed } from "../shared/errors";

/** The message for a `<field>_currency` key that is not the account's currency. */
export const wrongCurrencyMessage = (accountCurrency: string) =>
  `Must be the bank account's currency, '${accountCurrency}'.`;

/**
 * Field errors for the `*_currency` keys of a request: each given one must be the account's
 * currency (the key is optional and defaults to it). Returns an empty object when all are fine.
 */
export function currencyKeyErrors(
  input: Record<string, unknown>,
  keys: readonly string[],
  accountCurrency: string,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const key of keys) {
    const given = input[key];
    if (given === undefined || given === null) continue;
    if (String(given).trim().toUpperCase() !== accountCurrency)
      errors[key] = [wrongCurrencyMessage(accountCurrency)];
  }
  return errors;
}

/** Throws the 400 for any `*_currency` key that is not the account's currency. */
export function assertAccountCurrency(
  input: Record<string, unknown>,
  keys: readonly string[],
  accountCurrency: string,
) {
  const errors = currencyKeyErrors(input, keys, accountCurrency);
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
}
