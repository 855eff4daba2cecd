import type { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { BUDGET_TYPE, FUNDING_TYPE } from "@allot/contract/budgets/budget-kinds";
import type { RouteInput } from "@allot/contract/http/route";
import { formatMoney, toMoney, ZERO } from "@allot/contract/money";
import { bankAccountOwners, bankAccounts } from "@allot/db/schema/bank-accounts";
import { banks } from "@allot/db/schema/banks";
import { budgets } from "@allot/db/schema/budgets";
import { eq } from "drizzle-orm";
import { currencyKeyErrors } from "../account-access/account-currency";
import { writeAccount } from "../account-access/write-account";
import { isActiveCurrency } from "../currencies/currency-list";
import type { AccountChange } from "../events/record-event";
import { stampAccount } from "../ledger/change-number";
import { ValidationFailed } from "../shared/errors";
import { insideTransaction, type UseCaseContext } from "../shared/use-case-context";
import { addError, type FieldErrors } from "../shared/validation";
import { CURRENCY_KEYS } from "./bank-account-fields";
import { loadBankAccountView } from "./bank-account-view";

export const UNALLOCATED_BUDGET_NAME = "Unallocated";

/**
 * A new account owned by the caller, with its Unallocated budget in the same transaction. The
 * Unallocated budget starts with the whole available balance, so that available_balance equals
 * the sum of the account's budget balances from the first moment.
 */
export async function createBankAccount(
  ctx: UseCaseContext,
  input: RouteInput<typeof bankAccountRoutes.create>,
) {
  const { db, actor } = ctx;
  return db.transaction(async (tx) => {
    const errors: FieldErrors = {};
    const [bank] = await tx.select().from(banks).where(eq(banks.id, input.bank)).limit(1);
    if (!bank) addError(errors, "bank", `Invalid pk "${input.bank}" - object does not exist.`);

    // Defaults to the bank's currency; either way it must be a current ISO 4217 code.
    let currency = input.currency ?? bank?.defaultCurrency;
    if (currency !== undefined && !isActiveCurrency(currency)) {
      addError(errors, "currency", `'${currency}' is not a current ISO 4217 currency code.`);
      currency = undefined;
    }
    if (currency !== undefined) Object.assign(errors, currencyKeyErrors(input, CURRENCY_KEYS, currency));
    const posted = toMoney(input.posted_balance ?? ZERO);
    const available = toMoney(input.available_balance ?? ZERO);
    if (Object.keys(errors).length > 0 || !bank || !currency) throw new ValidationFailed(errors);

    const [inserted] = await tx
      .insert(bankAccounts)
      .values({
        name: input.name,
        bankId: bank.id,
        accountType: input.account_type ?? "C",
        accountNumber: input.account_number || null,
        currency,
        postedBalance: formatMoney(posted),
        availableBalance: formatMoney(available),
        autoFundingEnabled: input.auto_funding_enabled ?? false,
      })
      .returning();
    if (!inserted) throw new Error("bank account insert returned nothing");
    // Its first write: the caller becomes its owner (not one yet, so the act asks for none).
    const target = { accountId: inserted.id, owner: null };
    return writeAccount(insideTransaction(ctx, tx), target, async (tx, account) => {
      // The account's creation is its first change (number 1): the row was there before the number.
      await stampAccount(tx, account.id);
      await tx.insert(bankAccountOwners).values({ bankAccountId: account.id, userId: actor.userId });
      const [unallocated] = await tx
        .insert(budgets)
        .values({
          bankAccountId: account.id,
          name: UNALLOCATED_BUDGET_NAME,
          budgetType: BUDGET_TYPE.goal,
          fundingType: FUNDING_TYPE.fixedAmount,
          isUnallocated: true,
          balance: formatMoney(available),
          targetBalance: "0",
        })
        .returning({ id: budgets.id });
      if (!unallocated) throw new Error("Unallocated budget insert returned nothing");
      // One operation, one event: the Unallocated budget is part of the account's creation.
      const event: AccountChange = {
        accountId: account.id,
        type: "bank_account.created",
        says: `created the bank account ${account.name}`,
        data: {
          bank_account: account.id,
          name: account.name,
          bank: account.bankId,
          account_type: account.accountType,
          currency: account.currency,
          posted_balance: formatMoney(account.postedBalance),
          available_balance: formatMoney(account.availableBalance),
          auto_funding_enabled: account.autoFundingEnabled,
          unallocated_budget: unallocated.id,
        },
      };
      return { event, result: await loadBankAccountView(tx, account) };
    });
  });
}
