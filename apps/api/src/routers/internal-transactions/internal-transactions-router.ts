import { router } from "../../trpc/trpc";
import { createInternalTransactionProcedure } from "./create-internal-transaction";
import { getInternalTransactionProcedure } from "./get-internal-transaction";
import { listInternalTransactionsProcedure } from "./list-internal-transactions";

/** The internal-transactions procedures, in the contract's order (write-once: no update or delete). */
export const internalTransactionsRouter = router({
  list: listInternalTransactionsProcedure,
  create: createInternalTransactionProcedure,
  get: getInternalTransactionProcedure,
});
