import { getBankAccountRoute } from "@allot/contract/bank-accounts/routes";
import { getBankAccount } from "@allot/domain/bank-accounts/get-bank-account";
import { procedureFor } from "../../trpc/trpc";

export const getBankAccountProcedure = procedureFor(getBankAccountRoute).query(({ ctx, input }) =>
  getBankAccount(ctx, input),
);
