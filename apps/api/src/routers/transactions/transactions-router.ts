import { randomUUID } from "node:crypto";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { createTransaction } from "@allot/domain/transactions/create-transaction";
import { deleteTransaction } from "@allot/domain/transactions/delete-transaction";
import { getTransaction } from "@allot/domain/transactions/get-transaction";
import { listTransactions } from "@allot/domain/transactions/list-transactions";
import { resolvePending } from "@allot/domain/transactions/resolve-pending";
import { splitTransaction } from "@allot/domain/transactions/split-transaction";
import { updateTransaction } from "@allot/domain/transactions/update-transaction";
import { bindRoutes, paged } from "../../trpc/bind-routes";

/** The transactions routes, each bound to its use case, in the contract's order. */
export const transactionsRouter = bindRoutes(transactionRoutes, {
  list: paged(listTransactions),
  create: { run: createTransaction, files: () => randomUUID() },
  get: getTransaction,
  replace: { run: updateTransaction, files: (input) => input.id },
  update: { run: updateTransaction, files: (input) => input.id },
  delete: { run: deleteTransaction, files: () => null },
  resolvePending,
  split: splitTransaction,
});
