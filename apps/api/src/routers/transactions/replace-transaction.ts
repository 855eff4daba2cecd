import { replaceTransactionRoute } from "@allot/contract/transactions/routes";
import { updateTransaction } from "@allot/domain/transactions/update-transaction";
import { filesOf } from "../../trpc/context";
import { procedureFor } from "../../trpc/trpc";

export const replaceTransactionProcedure = procedureFor(replaceTransactionRoute, {
  files: (input) => input.id,
}).mutation(({ ctx, input }) => updateTransaction(ctx, input, filesOf(ctx)));
