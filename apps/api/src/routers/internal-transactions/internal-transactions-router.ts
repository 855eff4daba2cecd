import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { createInternalTransaction } from "@allot/domain/internal-transactions/create-internal-transaction";
import { getInternalTransaction } from "@allot/domain/internal-transactions/get-internal-transaction";
import { listInternalTransactions } from "@allot/domain/internal-transactions/list-internal-transactions";
import { bindRoutes, paged } from "../../trpc/bind-routes";

/** The internal-transactions routes, bound in the contract's order (write-once: no update or delete). */
export const internalTransactionsRouter = bindRoutes(internalTransactionRoutes, {
  list: paged(listInternalTransactions),
  create: createInternalTransaction,
  get: getInternalTransaction,
});
