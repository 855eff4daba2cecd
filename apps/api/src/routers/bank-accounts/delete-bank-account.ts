import { deleteBankAccountRoute } from "@allot/contract/bank-accounts/routes";
import { deleteBankAccount } from "@allot/domain/bank-accounts/delete-bank-account";
import { procedureFor } from "../../trpc/trpc";

export const deleteBankAccountProcedure = procedureFor(deleteBankAccountRoute).mutation(({ ctx, input }) =>
  deleteBankAccount(ctx, input),
);
