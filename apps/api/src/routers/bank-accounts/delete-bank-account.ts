import { deleteBankAccountRoute } from "@allot/contract/bank-accounts/routes";
import { deleteBankAccount } from "@allot/domain/bank-accounts/delete-bank-account";
import { filesOf } from "../../trpc/context";
import { procedureFor } from "../../trpc/trpc";

export const deleteBankAccountProcedure = procedureFor(deleteBankAccountRoute, {
  files: () => null,
}).mutation(({ ctx, input }) => deleteBankAccount(ctx, input, filesOf(ctx)));
