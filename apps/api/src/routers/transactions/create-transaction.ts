import { randomUUID } from "node:crypto";
import { createTransactionRoute } from "@allot/contract/transactions/routes";
import { createTransaction } from "@allot/domain/transactions/create-transaction";
import { filesOf } from "../../trpc/context";
import { procedureFor } from "../../trpc/trpc";

export const createTransactionProcedure = procedureFor(createTransactionRoute, {
  files: () => randomUUID(),
}).mutation(({ ctx, input }) => createTransaction(ctx, input, filesOf(ctx)));
