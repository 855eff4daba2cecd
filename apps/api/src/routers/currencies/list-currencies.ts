import { listCurrenciesRoute } from "@allot/contract/currencies/routes";
import { listCurrencies } from "@allot/domain/currencies/currency-list";
import { procedureFor } from "../../trpc/trpc";

export const listCurrenciesProcedure = procedureFor(listCurrenciesRoute).query(() => listCurrencies());
