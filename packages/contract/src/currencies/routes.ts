import { z } from "zod";
import { noInput } from "../http/fields";
import { defineRoute } from "../http/route";
import { CurrencySchema } from "./currency";

/** The currencies routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const currencyRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/v1/currencies/",
    status: 200,
    summary: "Every ISO 4217 currency, historic ones included (numeric null), sorted by code",
    description:
      "The ISO 4217 currencies as an array sorted by code (not paginated): the codes accepted in `currency` and in every `*_currency` field.",
    tags: ["currencies"],
    access: "user",
    input: noInput(),
    output: z.array(CurrencySchema),
  }),
};
