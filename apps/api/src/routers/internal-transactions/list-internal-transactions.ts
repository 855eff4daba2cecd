import { listInternalTransactionsRoute } from "@allot/contract/internal-transactions/routes";
import { listInternalTransactions } from "@allot/domain/internal-transactions/list-internal-transactions";
import { toPage } from "../../http/page-links";
import { procedureFor } from "../../trpc/trpc";

export const listInternalTransactionsProcedure = procedureFor(listInternalTransactionsRoute).query(
  async ({ ctx, input }) => toPage(ctx.http.request, await listInternalTransactions(ctx, input)),
);
