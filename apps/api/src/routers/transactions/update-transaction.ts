import { updateTransactionRoute } from "@allot/contract/transactions/routes";
import { updateTransaction } from "@allot/domain/transactions/update-transaction";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const updateTransactionProcedure = procedureFor(updateTransactionRoute).mutation(
  ({ ctx, input: { id, ...fields } }) => updateTransaction(ctx.db, actorOf(ctx), id, fields),
);
