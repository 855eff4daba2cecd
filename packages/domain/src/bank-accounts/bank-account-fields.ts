import type { bankAccountFields } from "@allot/contract/bank-accounts/bank-account";
import type { z } from "zod";

/** The writable BankAccount fields as the contract parsed them; any may be absent. */
export type BankAccountFields = Partial<{
  [K in keyof typeof bankAccountFields]: z.output<(typeof bankAccountFields)[K]>;
}>;

/** Money fields that are set at creation and never change afterwards. */
export const BALANCE_FIELDS = ["posted_balance", "available_balance"] as const;

/** The `<field>_currency` keys a request may carry; each must be the account's currency. */
export const CURRENCY_KEYS = ["posted_balance_currency", "available_balance_currency"] as const;
