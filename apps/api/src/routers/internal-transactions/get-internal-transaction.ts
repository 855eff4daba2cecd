import { getInternalTransactionRoute } from "@allot/contract/internal-transactions/routes";
import { getInternalTransaction } from "@allot/domain/internal-transactions/get-internal-transaction";
import { procedureFor } from "../../trpc/trpc";

export const getInternalTransactionProcedure = procedureFor(getInternalTransactionRoute).query(
  ({ ctx, input }) => getInternalTransaction(ctx, input),
);
