import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { archiveCategory } from "@allot/domain/categories/archive-category";
import { createCategory } from "@allot/domain/categories/create-category";
import { deleteCategory } from "@allot/domain/categories/delete-category";
import { getCategory } from "@allot/domain/categories/get-category";
import { listCategories } from "@allot/domain/categories/list-categories";
import { updateCategory } from "@allot/domain/categories/update-category";
import { bindRoutes, paged } from "../../trpc/bind-routes";

/** The transaction-categories routes, each bound to its use case, in the contract's order. */
export const transactionCategoriesRouter = bindRoutes(transactionCategoryRoutes, {
  list: paged(listCategories),
  create: createCategory,
  get: getCategory,
  replace: updateCategory,
  update: updateCategory,
  delete: deleteCategory,
  archive: archiveCategory,
});
