import { splitTransactionRoute } from "@allot/contract/transactions/routes";
import { splitTransaction } from "@allot/domain/transactions/split-transaction";
import { procedureFor } from "../../trpc/trpc";

export const splitTransactionProcedure = procedureFor(splitTransactionRoute).mutation(({ ctx, input }) =>
  splitTransaction(ctx, input),
);
