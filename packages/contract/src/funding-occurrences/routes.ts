import { z } from "zod";
import {
  accountFilter,
  choiceListField,
  dateField,
  orderingField,
  pageQuery,
  paginated,
  uuidField,
} from "../http/fields";
import { defineRoute } from "../http/route";
import {
  FUNDING_KIND_TEXT,
  FUNDING_OCCURRENCE_KINDS,
  FUNDING_OCCURRENCE_ORDERING,
  FUNDING_OCCURRENCE_STATUSES,
  FundingEventOccurrenceSchema,
} from "./funding-occurrence";

const tags = ["funding-occurrences"];

/*
 * Read-only: the funding engine writes occurrences. The route table answers 405 for POST, PUT,
 * PATCH and DELETE on these paths.
 */

/** The funding occurrences routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const fundingOccurrenceRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/v1/funding-occurrences/",
    status: 200,
    summary:
      "Funding and recurrence events of the caller's accounts (by scheduled date unless ordered otherwise)",
    description:
      "Funding and recurrence events of the caller's budgets, by scheduled date unless `ordering` says otherwise, paginated; filter by account, budget, kind, status and scheduled date.",
    tags,
    access: "user",
    input: z.object({
      bank_account: accountFilter(),
      budget: uuidField().meta({ description: "Only the events of this budget." }).optional(),
      date_from: dateField().meta({ description: "scheduled_date on or after." }).optional(),
      date_to: dateField().meta({ description: "scheduled_date on or before." }).optional(),
      kind: z.enum(FUNDING_OCCURRENCE_KINDS).meta({ description: FUNDING_KIND_TEXT }).optional(),
      status: choiceListField(FUNDING_OCCURRENCE_STATUSES)
        .meta({ description: "Repeatable (`?status=PARTIAL&status=COMPLETE`): any of them." })
        .optional(),
      ordering: orderingField(FUNDING_OCCURRENCE_ORDERING).optional(),
      ...pageQuery,
    }),
    output: paginated(FundingEventOccurrenceSchema),
  }),

  get: defineRoute({
    method: "GET",
    path: "/v1/funding-occurrences/{id}/",
    status: 200,
    summary: "Retrieve a funding or recurrence event",
    description: "One funding (`fund`) or recurrence (`recur`) event of a budget and its status.",
    tags,
    access: "user",
    input: z.object({ id: uuidField().meta({ description: "The occurrence's id." }) }),
    output: FundingEventOccurrenceSchema,
  }),
};
