import { router } from "../../trpc/trpc";
import { listCurrenciesProcedure } from "./list-currencies";

/** The currencies procedures, in the contract's order. */
export const currenciesRouter = router({
  list: listCurrenciesProcedure,
});
