import { createTransactionRoute } from "@allot/contract/transactions/routes";
import { createTransaction } from "@allot/domain/transactions/create-transaction";
import { procedureFor } from "../../trpc/trpc";

export const createTransactionProcedure = procedureFor(createTransactionRoute).mutation(({ ctx, input }) =>
  createTransaction(ctx, input),
);
