import { createTransactionCategoryRoute } from "@allot/contract/transaction-categories/routes";
import { createCategory } from "@allot/domain/categories/create-category";
import { procedureFor } from "../../trpc/trpc";

export const createTransactionCategoryProcedure = procedureFor(createTransactionCategoryRoute).mutation(
  ({ ctx, input }) => createCategory(ctx, input),
);
