import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { createBankAccount } from "@allot/domain/bank-accounts/create-bank-account";
import { deleteBankAccount } from "@allot/domain/bank-accounts/delete-bank-account";
import { getBankAccount } from "@allot/domain/bank-accounts/get-bank-account";
import { listBankAccounts } from "@allot/domain/bank-accounts/list-bank-accounts";
import { markImported } from "@allot/domain/bank-accounts/mark-imported";
import { updateBankAccount } from "@allot/domain/bank-accounts/update-bank-account";
import { bindRoutes, paged } from "../../trpc/bind-routes";

/** The bank-accounts routes, each bound to its use case, in the contract's order. */
export const bankAccountsRouter = bindRoutes(bankAccountRoutes, {
  list: paged(listBankAccounts),
  create: createBankAccount,
  get: getBankAccount,
  replace: updateBankAccount,
  update: updateBankAccount,
  delete: { run: deleteBankAccount, files: () => null },
  markImported,
});
