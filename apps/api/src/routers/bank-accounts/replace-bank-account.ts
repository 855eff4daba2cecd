import { replaceBankAccountRoute } from "@allot/contract/bank-accounts/routes";
import { updateBankAccount } from "@allot/domain/bank-accounts/update-bank-account";
import { actorOf, procedureFor } from "../../trpc/trpc";

export const replaceBankAccountProcedure = procedureFor(replaceBankAccountRoute).mutation(
  ({ ctx, input: { id, ...fields } }) => updateBankAccount(ctx.db, actorOf(ctx), id, fields),
);
