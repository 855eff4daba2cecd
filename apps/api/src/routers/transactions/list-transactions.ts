import { listTransactionsRoute } from "@allot/contract/transactions/routes";
import { listTransactions } from "@allot/domain/transactions/list-transactions";
import { toPage } from "../../http/page-links";
import { procedureFor } from "../../trpc/trpc";

export const listTransactionsProcedure = procedureFor(listTransactionsRoute).query(async ({ ctx, input }) =>
  toPage(ctx.http.request, await listTransactions(ctx, input, ctx.config)),
);
