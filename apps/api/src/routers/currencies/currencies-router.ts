import { currencyRoutes } from "@allot/contract/currencies/routes";
import { listCurrencies } from "@allot/domain/currencies/currency-list";
import { bindRoutes } from "../../trpc/bind-routes";

/** The currencies routes, each bound to its use case, in the contract's order. */
export const currenciesRouter = bindRoutes(currencyRoutes, {
  list: listCurrencies,
});
