import { z } from "zod";
import { orderingField, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { BankSchema } from "./bank";

const tags = ["banks"];

/** The banks routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const bankRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/v1/banks/",
    status: 200,
    summary: "List banks",
    description:
      "The banks an account can be held at, paginated. Read-only reference data, the same for every user.",
    tags,
    access: "user",
    input: z.object({ ordering: orderingField(["name", "created_at"]).optional(), ...pageQuery }),
    output: paginated(BankSchema),
  }),

  get: defineRoute({
    method: "GET",
    path: "/v1/banks/{id}/",
    status: 200,
    summary: "Retrieve a bank",
    description: "One bank of the reference data.",
    tags,
    access: "user",
    input: z.object({ id: uuidField().meta({ description: "The bank's id." }) }),
    output: BankSchema,
  }),
};
