import { archiveTransactionCategoryRoute } from "@allot/contract/transaction-categories/routes";
import { archiveCategory } from "@allot/domain/categories/archive-category";
import { procedureFor } from "../../trpc/trpc";

export const archiveTransactionCategoryProcedure = procedureFor(archiveTransactionCategoryRoute).mutation(
  ({ ctx, input }) => archiveCategory(ctx, input),
);
