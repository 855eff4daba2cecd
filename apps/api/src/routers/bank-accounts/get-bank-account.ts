import { getBankAccountRoute } from "@allot/contract/bank-accounts/routes";
import { getBankAccount } from "@allot/domain/bank-accounts/get-bank-account";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const getBankAccountProcedure = procedureFor(getBankAccountRoute).query(({ ctx, input }) =>
  getBankAccount(ctx.db, actorOf(ctx), input.id),
);
