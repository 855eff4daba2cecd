import { listBankAccountsRoute } from "@allot/contract/bank-accounts/routes";
import { listBankAccounts } from "@allot/domain/bank-accounts/list-bank-accounts";
import { toPage } from "../../http/page-links";
import { procedureFor } from "../../trpc/trpc";

export const listBankAccountsProcedure = procedureFor(listBankAccountsRoute).query(async ({ ctx, input }) =>
  toPage(ctx.http.request, await listBankAccounts(ctx, input)),
);
