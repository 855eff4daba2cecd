import { splitTransactionRoute } from "@allot/contract/transactions/routes";
import { splitTransaction } from "@allot/domain/transactions/split-transaction";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const splitTransactionProcedure = procedureFor(splitTransactionRoute).mutation(
  ({ ctx, input: { id, splits } }) => splitTransaction(ctx.db, actorOf(ctx), id, { splits }),
);
