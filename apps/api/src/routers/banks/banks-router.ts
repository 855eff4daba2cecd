import { router } from "../../trpc/trpc";
import { getBankProcedure } from "./get-bank";
import { listBanksProcedure } from "./list-banks";

/** The banks procedures, in the contract's order. */
export const banksRouter = router({
  list: listBanksProcedure,
  get: getBankProcedure,
});
