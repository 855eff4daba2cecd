import { deleteTransactionRoute } from "@allot/contract/transactions/routes";
import { deleteTransaction } from "@allot/domain/transactions/delete-transaction";
import { procedureFor } from "../../trpc/trpc";

export const deleteTransactionProcedure = procedureFor(deleteTransactionRoute).mutation(({ ctx, input }) =>
  deleteTransaction(ctx, input),
);
