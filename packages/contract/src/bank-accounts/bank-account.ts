import { z } from "zod";
import { nameText } from "../http/control-characters";
import {
  booleanField,
  currencyCode,
  dateTimeOutput,
  describeFields,
  moneyInput,
  moneyOutput,
  uuidField,
} from "../http/fields";

export const ACCOUNT_TYPES = ["C", "S", "X"] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

const ACCOUNT_ID = "7c4e2b19-5a3d-4f8e-a6b1-9d0c3e2f4a58";

/** One text for each field, request and response alike. */
const BANK_ACCOUNT_DOCS = {
  id: ["The account's id.", ACCOUNT_ID],
  name: ["The account's name, 1–200 characters; may change.", "Everyday checking"],
  bank: ["The bank's id; fixed at creation.", "5d0c8a1e-3b6f-4a2d-9e7c-1f4b8a6d2c93"],
  owners: ["The owners' usernames.", ["ada@example.com"]],
  account_type: ["`C` checking, `S` savings, `X` credit card; fixed at creation.", "C"],
  account_number: ["The bank's account number, up to 32 characters, or null; may change.", "****4821"],
  currency: [
    "The account's ISO 4217 currency, every amount under it is in; defaults to the bank's, fixed at creation.",
    "USD",
  ],
  posted_balance: [
    "The balance of posted transactions (pending debits not deducted); given once, at creation.",
    "2450.00",
  ],
  posted_balance_currency: ["The account's currency (optional in a request).", "USD"],
  available_balance: ["The balance with pending debits deducted; given once, at creation.", "2391.25"],
  available_balance_currency: ["The account's currency (optional in a request).", "USD"],
  unallocated_budget: ["The id of the account's Unallocated budget.", "e1a7c3d5-2b4f-4e6a-8c9d-0f1e2a3b4c5d"],
  auto_funding_enabled: [
    "True: due funding and recurrence events run on their own; false: only when run-funding is called.",
    true,
  ],
  last_imported_at: [
    "When the latest import was marked complete; null before the first.",
    "2026-05-02T06:00:00Z",
  ],
  last_posted_through: [
    "The latest posted date of the latest import; the funding engine processes no event dated after it.",
    "2026-05-01",
  ],
  timezone: [
    "The account's calendar: its first owner's time zone (IANA). A bare date sent for this account, and every day shown or derived for it (list filters, imports, funding dates), is a day in this zone.",
    "America/New_York",
  ],
  created_at: ["When the account was created.", "2026-01-10T15:30:00Z"],
  modified_at: ["When the account last changed.", "2026-05-02T06:00:00Z"],
} as const;

export const BankAccountSchema = z
  .object(
    describeFields(
      {
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
        timezone: z.string(),
        created_at: dateTimeOutput(),
        modified_at: dateTimeOutput(),
      },
      BANK_ACCOUNT_DOCS,
    ),
  )
  .meta({ id: "BankAccount", description: "A bank account the caller co-owns, with its balances." });

/**
 * Every writable field. On create they set the account up; on update only name, account_number and
 * auto_funding_enabled may change, and the others are accepted when they repeat the stored value.
 */
export const bankAccountFields = describeFields(
  {
    name: nameText().trim().min(1, "This field may not be blank.").max(200),
    bank: uuidField(),
    account_type: z.enum(ACCOUNT_TYPES),
    account_number: z.string().trim().max(32).nullable(),
    currency: currencyCode(),
    posted_balance: moneyInput(),
    posted_balance_currency: currencyCode(),
    available_balance: moneyInput(),
    available_balance_currency: currencyCode(),
    auto_funding_enabled: booleanField(),
  },
  BANK_ACCOUNT_DOCS,
);
