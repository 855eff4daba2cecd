import { getTransactionCategoryRoute } from "@allot/contract/transaction-categories/routes";
import { getCategory } from "@allot/domain/categories/get-category";
import { procedureFor } from "../../trpc/trpc";

export const getTransactionCategoryProcedure = procedureFor(getTransactionCategoryRoute).query(
  ({ ctx, input }) => getCategory(ctx, input),
);
