import { z } from "zod";
import {
  accountFilter,
  dateTimeFilter,
  orderingField,
  pageQuery,
  paginated,
  uuidField,
} from "../http/fields";
import { defineRoute } from "../http/route";
import {
  INTERNAL_TRANSACTION_ORDERING,
  InternalTransactionSchema,
  internalTransactionFields,
} from "./internal-transaction";

const tags = ["internal-transactions"];

/*
 * Write-once: there is no PUT, PATCH or DELETE. The route table answers 405 for those methods on
 * a known path; to undo a transfer, create one with source and destination swapped.
 */

/** The internal transactions routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const internalTransactionRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/v1/internal-transactions/",
    status: 200,
    summary: "Transfers between budgets of the caller's accounts",
    description:
      "Transfers between budgets of the caller's accounts, paginated; filter by account, budget (either side, or source or destination) and date.",
    tags,
    access: "user",
    input: z.object({
      bank_account: accountFilter(),
      budget: uuidField().meta({ description: "Either the source or the destination." }).optional(),
      src_budget: uuidField().meta({ description: "Only transfers out of this budget." }).optional(),
      dst_budget: uuidField().meta({ description: "Only transfers into this budget." }).optional(),
      date_from: dateTimeFilter("effective_date on or after."),
      date_to: dateTimeFilter("effective_date on or before."),
      ordering: orderingField(INTERNAL_TRANSACTION_ORDERING).optional(),
      ...pageQuery,
    }),
    output: paginated(InternalTransactionSchema),
  }),

  create: defineRoute({
    method: "POST",
    path: "/v1/internal-transactions/",
    status: 201,
    summary: "Move money between two budgets of one account; the caller is recorded as actor",
    description:
      "Moves `amount` from `src_budget` to `dst_budget`, both in `bank_account`; the caller is recorded as actor. Write-once: there is no update or delete; reverse a transfer by creating one with the budgets swapped.",
    tags,
    access: "user",
    events: ["transfer.created"],
    input: z.object(internalTransactionFields),
    output: InternalTransactionSchema,
  }),

  get: defineRoute({
    method: "GET",
    path: "/v1/internal-transactions/{id}/",
    status: 200,
    summary: "Retrieve a transfer",
    description: "One transfer between budgets, with both budgets' balances after it.",
    tags,
    access: "user",
    input: z.object({ id: uuidField().meta({ description: "The transfer's id." }) }),
    output: InternalTransactionSchema,
  }),
};
