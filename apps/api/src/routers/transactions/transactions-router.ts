import { router } from "../../trpc/trpc";
import { createTransactionProcedure } from "./create-transaction";
import { deleteTransactionProcedure } from "./delete-transaction";
import { getTransactionProcedure } from "./get-transaction";
import { listTransactionsProcedure } from "./list-transactions";
import { replaceTransactionProcedure } from "./replace-transaction";
import { resolvePendingProcedure } from "./resolve-pending";
import { splitTransactionProcedure } from "./split-transaction";
import { updateTransactionProcedure } from "./update-transaction";

/** The transactions procedures, in the contract's order. */
export const transactionsRouter = router({
  list: listTransactionsProcedure,
  create: createTransactionProcedure,
  get: getTransactionProcedure,
  replace: replaceTransactionProcedure,
  update: updateTransactionProcedure,
  remove: deleteTransactionProcedure,
  resolvePending: resolvePendingProcedure,
  split: splitTransactionProcedure,
});
