import { z } from "zod";
import {
  booleanField,
  currencyCode,
  dateTimeOutput,
  moneyInput,
  moneyOutput,
  uuidField,
} from "../http/fields";

export const ACCOUNT_TYPES = ["C", "S", "X"] as const;

export const BankAccountSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    bank: z.uuid(),
    owners: z.array(z.string()),
    account_type: z.enum(ACCOUNT_TYPES),
    account_number: z.string().nullable(),
    currency: z.string(),
    posted_balance: moneyOutput(),
    posted_balance_currency: z.string(),
    available_balance: moneyOutput(),
    available_balance_currency: z.string(),
    unallocated_budget: z.uuid().nullable(),
    auto_funding_enabled: z.boolean(),
    last_imported_at: dateTimeOutput().nullable(),
    last_posted_through: z.iso.date().nullable(),
    timezone: z.string().meta({
      description:
        "The account's calendar: its first owner's time zone (IANA). A bare date sent for this account, and every day shown or derived for it (list filters, imports, funding dates), is a day in this zone.",
    }),
    created_at: dateTimeOutput(),
    modified_at: dateTimeOutput(),
  })
  .meta({ id: "BankAccount" });

/**
 * Every writable field. On create they set the account up; on update only name, account_number and
 * auto_funding_enabled may change, and the others are accepted when they repeat the stored value.
 */
export const bankAccountFields = {
  name: z.string().trim().min(1, "This field may not be blank.").max(200),
  bank: uuidField(),
  account_type: z.enum(ACCOUNT_TYPES),
  account_number: z.string().trim().max(32).nullable(),
  currency: currencyCode(),
  posted_balance: moneyInput(),
  posted_balance_currency: currencyCode(),
  available_balance: moneyInput(),
  available_balance_currency: currencyCode(),
  auto_funding_enabled: booleanField(),
};
