import { z } from "zod";
import { dateField, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { FundingEventDatesSchema, FundingSummarySchema, RunFundingResultSchema } from "./funding";

const tags = ["funding"];
const id = uuidField();

export const runFundingRoute = defineRoute({
  method: "POST",
  path: "/v1/bank-accounts/{id}/run-funding/",
  status: 200,
  summary: "Process every due fund and recurrence event of the account through as_of",
  tags,
  access: "user",
  input: z.object({
    id,
    as_of: dateField().optional().meta({ description: "Defaults to today in the first owner's time zone." }),
  }),
  output: RunFundingResultSchema,
});

export const fundingEventDatesRoute = defineRoute({
  method: "GET",
  path: "/v1/bank-accounts/{id}/funding-event-dates/",
  status: 200,
  summary: "Days in (after, before] on which a funding or recurrence event of the account falls",
  tags,
  access: "user",
  input: z.object({
    id,
    after: dateField().meta({ description: "Exclusive." }),
    before: dateField().meta({ description: "Inclusive." }),
  }),
  output: FundingEventDatesSchema,
});

export const fundingSummaryRoute = defineRoute({
  method: "GET",
  path: "/v1/bank-accounts/{id}/funding-summary/",
  status: 200,
  summary: "The budgets' next funding, grouped by schedule and sorted by next date",
  tags,
  access: "user",
  input: z.object({ id }),
  output: FundingSummarySchema,
});
