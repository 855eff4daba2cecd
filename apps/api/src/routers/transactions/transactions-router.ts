import { randomUUID } from "node:crypto";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { createTransaction } from "@allot/domain/transactions/create-transaction";
import { deleteTransaction } from "@allot/domain/transactions/delete-transaction";
import { getTransaction } from "@allot/domain/transactions/get-transaction";
import { listTransactions } from "@allot/domain/transactions/list-transactions";
import { resolvePending } from "@allot/domain/transactions/resolve-pending";
import { splitTransaction } from "@allot/domain/transactions/split-transaction";
import { updateTransaction } from "@allot/domain/transactions/update-transaction";
import { bindRoutes, paged, withServices } from "../../trpc/bind-routes";
import { filesOf } from "../../trpc/context";
import { attachmentLinks } from "../use-case-services";

/** The transactions routes, each bound to its use case, in the contract's order. */
export const transactionsRouter = bindRoutes(transactionRoutes, {
  list: paged(withServices(listTransactions, attachmentLinks)),
  create: { run: withServices(createTransaction, filesOf), files: () => randomUUID() },
  get: withServices(getTransaction, attachmentLinks),
  replace: { run: withServices(updateTransaction, filesOf), files: (input) => input.id },
  update: { run: withServices(updateTransaction, filesOf), files: (input) => input.id },
  delete: { run: withServices(deleteTransaction, filesOf), files: () => null },
  resolvePending: withServices(resolvePending, attachmentLinks),
  split: splitTransaction,
});
