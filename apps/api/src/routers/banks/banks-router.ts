import { bankRoutes } from "@allot/contract/banks/routes";
import { getBank } from "@allot/domain/banks/get-bank";
import { listBanks } from "@allot/domain/banks/list-banks";
import { bindRoutes, paged } from "../../trpc/bind-routes";

/** The banks routes, each bound to its use case, in the contract's order. */
export const banksRouter = bindRoutes(bankRoutes, {
  list: paged(listBanks),
  get: getBank,
});
