import { z } from "zod";
import { choiceListField, dateField, orderingField, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import {
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

export const listFundingOccurrencesRoute = defineRoute({
  method: "GET",
  path: "/v1/funding-occurrences/",
  status: 200,
  summary:
    "Funding and recurrence events of the caller's accounts (by scheduled date unless ordered otherwise)",
  tags,
  access: "user",
  input: z.object({
    bank_account: uuidField().optional(),
    budget: uuidField().optional(),
    date_from: dateField().optional().meta({ description: "scheduled_date on or after." }),
    date_to: dateField().optional().meta({ description: "scheduled_date on or before." }),
    kind: z.enum(FUNDING_OCCURRENCE_KINDS).optional(),
    status: choiceListField(FUNDING_OCCURRENCE_STATUSES)
      .optional()
      .meta({ description: "Repeatable (`?status=PARTIAL&status=COMPLETE`): any of them." }),
    ordering: orderingField(FUNDING_OCCURRENCE_ORDERING).optional(),
    ...pageQuery,
  }),
  output: paginated(FundingEventOccurrenceSchema),
});

export const getFundingOccurrenceRoute = defineRoute({
  method: "GET",
  path: "/v1/funding-occurrences/{id}/",
  status: 200,
  summary: "Retrieve a funding or recurrence event",
  tags,
  access: "user",
  input: z.object({ id: uuidField() }),
  output: FundingEventOccurrenceSchema,
});
