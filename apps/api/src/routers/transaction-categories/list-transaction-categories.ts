import { listTransactionCategoriesRoute } from "@allot/contract/transaction-categories/routes";
import { listCategories } from "@allot/domain/categories/list-categories";
import { toPage } from "../../http/page-links";
import { procedureFor } from "../../trpc/trpc";

export const listTransactionCategoriesProcedure = procedureFor(listTransactionCategoriesRoute).query(
  async ({ ctx, input }) => toPage(ctx.http.request, await listCategories(ctx, input)),
);
