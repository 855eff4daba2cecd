import type { updateBankAccountRoute } from "@allot/contract/bank-accounts/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import Big from "big.js";
import { eq } from "drizzle-orm";
import { ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { addError, type FieldErrors } from "../shared/validation";
import { currencyKeyErrors } from "./account-currency";
import {
  BALANCE_FIELDS,
  type BankAccountFields,
  CURRENCY_KEYS,
  parseMoneyField,
} from "./bank-account-fields";
import { loadBankAccountView } from "./bank-account-view";
import { type BankAccountRow, findOwnedAccount } from "./find-owned-account";

const IMMUTABLE = "This field cannot be changed once the bank account exists.";

/** Errors for fields that may be repeated but never changed: bank, account_type, currency, balances. */
function immutableFieldErrors(account: BankAccountRow, input: BankAccountFields): FieldErrors {
  const errors: FieldErrors = {};
  if (input.bank !== undefined && input.bank.toLowerCase() !== account.bankId.toLowerCase()) {
    addError(errors, "bank", IMMUTABLE);
  }
  if (input.account_type !== undefined && input.account_type !== account.accountType) {
    addError(errors, "account_type", IMMUTABLE);
  }
  if (input.currency !== undefined && input.currency !== account.currency)
    addError(errors, "currency", IMMUTABLE);
  const stored = { posted_balance: account.postedBalance, available_balance: account.availableBalance };
  for (const field of BALANCE_FIELDS) {
    const given = parseMoneyField(errors, field, input[field]);
    if (given !== undefined && !given.eq(new Big(stored[field]))) addError(errors, field, IMMUTABLE);
  }
  return { ...errors, ...currencyKeyErrors(input, CURRENCY_KEYS, account.currency) };
}

/**
 * PUT and PATCH: only name, account_number and auto_funding_enabled change. The other writable
 * fields are accepted when they repeat the stored value, refused (400 on the field) otherwise.
 */
export async function updateBankAccount(
  { db, actor }: UseCaseContext,
  { id, ...input }: RouteInput<typeof updateBankAccountRoute>,
) {
  return db.transaction(async (tx) => {
    const account = await findOwnedAccount(tx, actor, id, { lock: true });
    const errors = immutableFieldErrors(account, input);
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);

    const changes: Partial<typeof bankAccounts.$inferInsert> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.account_number !== undefined) changes.accountNumber = input.account_number || null;
    if (input.auto_funding_enabled !== undefined) changes.autoFundingEnabled = input.auto_funding_enabled;
    if (Object.keys(changes).length === 0) return loadBankAccountView(tx, account);

    const [updated] = await tx
      .update(bankAccounts)
      .set(changes)
      .where(eq(bankAccounts.id, account.id))
      .returning();
    if (!updated) throw new Error("bank account update returned nothing");
    return loadBankAccountView(tx, updated);
  });
}
