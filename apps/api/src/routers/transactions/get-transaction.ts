import { getTransactionRoute } from "@allot/contract/transactions/routes";
import { getTransaction } from "@allot/domain/transactions/get-transaction";
import { procedureFor } from "../../trpc/trpc";

export const getTransactionProcedure = procedureFor(getTransactionRoute).query(({ ctx, input }) =>
  getTransaction(ctx, input, ctx.config),
);
