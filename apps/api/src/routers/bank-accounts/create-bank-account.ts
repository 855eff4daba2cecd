import { createBankAccountRoute } from "@allot/contract/bank-accounts/routes";
import { createBankAccount } from "@allot/domain/bank-accounts/create-bank-account";
import { procedureFor } from "../../trpc/trpc";

export const createBankAccountProcedure = procedureFor(createBankAccountRoute).mutation(({ ctx, input }) =>
  createBankAccount(ctx, input),
);
