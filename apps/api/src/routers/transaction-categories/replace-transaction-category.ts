import { replaceTransactionCategoryRoute } from "@allot/contract/transaction-categories/routes";
import { updateCategory } from "@allot/domain/categories/update-category";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const replaceTransactionCategoryProcedure = procedureFor(replaceTransactionCategoryRoute).mutation(
  ({ ctx, input: { id, ...fields } }) => updateCategory(ctx.db, actorOf(ctx), id, fields),
);
