import { router } from "../../trpc/trpc";
import { createBankAccountProcedure } from "./create-bank-account";
import { deleteBankAccountProcedure } from "./delete-bank-account";
import { getBankAccountProcedure } from "./get-bank-account";
import { listBankAccountsProcedure } from "./list-bank-accounts";
import { markImportedProcedure } from "./mark-imported";
import { replaceBankAccountProcedure } from "./replace-bank-account";
import { updateBankAccountProcedure } from "./update-bank-account";

/** The bank-accounts procedures, in the contract's order. */
export const bankAccountsRouter = router({
  list: listBankAccountsProcedure,
  create: createBankAccountProcedure,
  get: getBankAccountProcedure,
  replace: replaceBankAccountProcedure,
  update: updateBankAccountProcedure,
  remove: deleteBankAccountProcedure,
  markImported: markImportedProcedure,
});
