import { replaceTransactionRoute } from "@allot/contract/transactions/routes";
import { updateTransaction } from "@allot/domain/transactions/update-transaction";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const replaceTransactionProcedure = procedureFor(replaceTransactionRoute).mutation(
  ({ ctx, input: { id, ...fields } }) => updateTransaction(ctx.db, actorOf(ctx), id, fields),
);
