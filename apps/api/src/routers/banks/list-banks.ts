import { listBanksRoute } from "@allot/contract/banks/routes";
import { listBanks } from "@allot/domain/banks/list-banks";
import { toPage } from "../../http/page-links";
import { procedureFor } from "../../trpc/trpc";

export const listBanksProcedure = procedureFor(listBanksRoute).query(async ({ ctx, input }) =>
  toPage(ctx.http.request, await listBanks(ctx, input)),
);
