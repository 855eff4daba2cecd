import { updateTransactionRoute } from "@allot/contract/transactions/routes";
import { updateTransaction } from "@allot/domain/transactions/update-transaction";
import { procedureFor } from "../../trpc/trpc";

export const updateTransactionProcedure = procedureFor(updateTransactionRoute).mutation(({ ctx, input }) =>
  updateTransaction(ctx, input),
);
