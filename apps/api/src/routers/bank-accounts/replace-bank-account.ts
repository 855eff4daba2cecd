import { replaceBankAccountRoute } from "@allot/contract/bank-accounts/routes";
import { updateBankAccount } from "@allot/domain/bank-accounts/update-bank-account";
import { procedureFor } from "../../trpc/trpc";

export const replaceBankAccountProcedure = procedureFor(replaceBankAccountRoute).mutation(({ ctx, input }) =>
  updateBankAccount(ctx, input),
);
