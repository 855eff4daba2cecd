import { getTransactionRoute } from "@allot/contract/transactions/routes";
import { getTransaction } from "@allot/domain/transactions/get-transaction";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const getTransactionProcedure = procedureFor(getTransactionRoute).query(({ ctx, input }) =>
  getTransaction(ctx.db, actorOf(ctx), input.id),
);
