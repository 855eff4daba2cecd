import { updateTransactionCategoryRoute } from "@allot/contract/transaction-categories/routes";
import { updateCategory } from "@allot/domain/categories/update-category";
import { procedureFor } from "../../trpc/trpc";

export const updateTransactionCategoryProcedure = procedureFor(updateTransactionCategoryRoute).mutation(
  ({ ctx, input }) => updateCategory(ctx, input),
);
