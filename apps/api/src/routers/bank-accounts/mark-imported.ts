import { markImportedRoute } from "@allot/contract/bank-accounts/routes";
import { markImported } from "@allot/domain/bank-accounts/mark-imported";
import { procedureFor } from "../../trpc/trpc";

export const markImportedProcedure = procedureFor(markImportedRoute).mutation(({ ctx, input }) =>
  markImported(ctx, input),
);
