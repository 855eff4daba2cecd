import { updateBankAccountRoute } from "@allot/contract/bank-accounts/routes";
import { updateBankAccount } from "@allot/domain/bank-accounts/update-bank-account";
import { procedureFor } from "../../trpc/trpc";

export const updateBankAccountProcedure = procedureFor(updateBankAccountRoute).mutation(({ ctx, input }) =>
  updateBankAccount(ctx, input),
);
