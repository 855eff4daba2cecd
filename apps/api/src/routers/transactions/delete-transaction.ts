import { deleteTransactionRoute } from "@allot/contract/transactions/routes";
import { deleteTransaction } from "@allot/domain/transactions/delete-transaction";
import { filesOf } from "../../trpc/context";
import { procedureFor } from "../../trpc/trpc";

export const deleteTransactionProcedure = procedureFor(deleteTransactionRoute, {
  files: () => null,
}).mutation(({ ctx, input }) => deleteTransaction(ctx, input, filesOf(ctx)));
