import { transactionDetailsRoute } from "@allot/contract/import/routes";
import { applyTransactionDetails } from "@allot/domain/import/apply-transaction-details";
import { procedureFor } from "../../trpc/trpc";

export const transactionDetailsProcedure = procedureFor(transactionDetailsRoute).mutation(({ ctx, input }) =>
  applyTransactionDetails(ctx, input),
);
