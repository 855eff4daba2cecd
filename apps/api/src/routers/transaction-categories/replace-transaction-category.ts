import { replaceTransactionCategoryRoute } from "@allot/contract/transaction-categories/routes";
import { updateCategory } from "@allot/domain/categories/update-category";
import { procedureFor } from "../../trpc/trpc";

export const replaceTransactionCategoryProcedure = procedureFor(replaceTransactionCategoryRoute).mutation(
  ({ ctx, input }) => updateCategory(ctx, input),
);
