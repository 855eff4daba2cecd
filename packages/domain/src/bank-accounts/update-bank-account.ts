import type { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { toMoney } from "@allot/contract/money";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { eq } from "drizzle-orm";
import { currencyKeyErrors } from "../account-access/account-currency";
import type { BankAccountRow } from "../account-access/find-owned-account";
import { writeAccount } from "../account-access/write-account";
import { ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { addError, type FieldErrors } from "../shared/validation";
import { BALANCE_FIELDS, type BankAccountFields, CURRENCY_KEYS } from "./bank-account-fields";
import { loadBankAccountView } from "./bank-account-view";

/** The fields an update may change, in the order an event lists them. */
const MUTABLE_FIELDS = ["name", "account_number", "auto_funding_enabled"] as const;

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
    const given = input[field];
    if (given !== undefined && !toMoney(given).eq(stored[field])) addError(errors, field, IMMUTABLE);
  }
  return { ...errors, ...currencyKeyErrors(input, CURRENCY_KEYS, account.currency) };
}

/**
 * PUT and PATCH: only name, account_number and auto_funding_enabled change. The other writable
 * fields are accepted when they repeat the stored value, refused (400 on the field) otherwise.
 * Records `bank_account.updated` with the changeable fields sent, even when none changes a value.
 */
export async function updateBankAccount(
  ctx: UseCaseContext,
  { id, ...input }: RouteInput<typeof bankAccountRoutes.update>,
) {
  const { actor } = ctx;
  return writeAccount(ctx, { accountId: id, owner: actor }, async (tx, account) => {
    const errors = immutableFieldErrors(account, input);
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);

    const changes: Partial<typeof bankAccounts.$inferInsert> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.account_number !== undefined) changes.accountNumber = input.account_number || null;
    if (input.auto_funding_enabled !== undefined) changes.autoFundingEnabled = input.auto_funding_enabled;
    let current = account;
    if (Object.keys(changes).length > 0) {
      const [updated] = await tx
        .update(bankAccounts)
        .set(changes)
        .where(eq(bankAccounts.id, account.id))
        .returning();
      if (!updated) throw new Error("bank account update returned nothing");
      current = updated;
    }
    const renamed = current.name !== account.name ? ` (formerly ${account.name})` : "";
    return {
      event: {
        accountId: account.id,
        type: "bank_account.updated",
        says: `updated the bank account ${current.name}${renamed}`,
        data: {
          bank_account: account.id,
          changes: MUTABLE_FIELDS.filter((field) => input[field] !== undefined),
        },
      },
      result: await loadBankAccountView(tx, current),
    };
  });
}
