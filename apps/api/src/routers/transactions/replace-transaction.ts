import { replaceTransactionRoute } from "@allot/contract/transactions/routes";
import { updateTransaction } from "@allot/domain/transactions/update-transaction";
import { procedureFor } from "../../trpc/trpc";

export const replaceTransactionProcedure = procedureFor(replaceTransactionRoute).mutation(({ ctx, input }) =>
  updateTransaction(ctx, input),
);
