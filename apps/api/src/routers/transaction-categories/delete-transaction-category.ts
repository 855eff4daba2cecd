import { deleteTransactionCategoryRoute } from "@allot/contract/transaction-categories/routes";
import { deleteCategory } from "@allot/domain/categories/delete-category";
import { procedureFor } from "../../trpc/trpc";

export const deleteTransactionCategoryProcedure = procedureFor(deleteTransactionCategoryRoute).mutation(
  ({ ctx, input }) => deleteCategory(ctx, input),
);
