import { createInternalTransactionRoute } from "@allot/contract/internal-transactions/routes";
import { createInternalTransaction } from "@allot/domain/internal-transactions/create-internal-transaction";
import { procedureFor } from "../../trpc/trpc";

export const createInternalTransactionProcedure = procedureFor(createInternalTransactionRoute).mutation(
  ({ ctx, input }) => createInternalTransaction(ctx, input),
);
