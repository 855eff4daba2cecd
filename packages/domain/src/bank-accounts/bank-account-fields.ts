import type { bankAccountFields } from "@allot/contract/bank-accounts/bank-account";
import { DECIMAL_PATTERN } from "@allot/contract/http/fields";
import type Big from "big.js";
import type { z } from "zod";
import { toMoney } from "../shared/money";
import { addError, type FieldErrors } from "../shared/validation";

/** The writable BankAccount fields as the contract parsed them; any may be absent. */
export type BankAccountFields = Partial<{
  [K in keyof typeof bankAccountFields]: z.output<(typeof bankAccountFields)[K]>;
}>;

/** Money fields that are set at creation and never change afterwards. */
export const BALANCE_FIELDS = ["posted_balance", "available_balance"] as const;

/** The `<field>_currency` keys a request may carry; each must be the account's currency. */
export const CURRENCY_KEYS = ["posted_balance_currency", "available_balance_currency"] as const;

/** A money field as an exact decimal, or an error on the field (the contract already checks this). */
export function parseMoneyField(
  errors: FieldErrors,
  field: string,
  value: string | undefined,
): Big | undefined {
  if (value === undefined) return undefined;
  if (!DECIMAL_PATTERN.test(value)) {
    addError(errors, field, "Must be a decimal with up to 12 integer digits and 2 decimal places.");
    return undefined;
  }
  return toMoney(value);
}
