import { router } from "../../trpc/trpc";
import { archiveTransactionCategoryProcedure } from "./archive-transaction-category";
import { createTransactionCategoryProcedure } from "./create-transaction-category";
import { deleteTransactionCategoryProcedure } from "./delete-transaction-category";
import { getTransactionCategoryProcedure } from "./get-transaction-category";
import { listTransactionCategoriesProcedure } from "./list-transaction-categories";
import { replaceTransactionCategoryProcedure } from "./replace-transaction-category";
import { updateTransactionCategoryProcedure } from "./update-transaction-category";

/** The transaction-categories procedures, in the contract's order. */
export const transactionCategoriesRouter = router({
  list: listTransactionCategoriesProcedure,
  create: createTransactionCategoryProcedure,
  get: getTransactionCategoryProcedure,
  replace: replaceTransactionCategoryProcedure,
  update: updateTransactionCategoryProcedure,
  remove: deleteTransactionCategoryProcedure,
  archive: archiveTransactionCategoryProcedure,
});
