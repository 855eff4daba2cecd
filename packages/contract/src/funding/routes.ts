import { z } from "zod";
import { dateField, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { FundingEventDatesSchema, FundingSummarySchema, RunFundingResultSchema } from "./funding";

const tags = ["funding"];
const id = uuidField().meta({ description: "The bank account's id." });

/** The funding routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const fundingRoutes = {
  run: defineRoute({
    method: "POST",
    path: "/v1/bank-accounts/{id}/run-funding/",
    status: 200,
    summary: "Process every due fund and recurrence event of the account through as_of",
    description:
      "Processes every due funding and recurrence event of the account up to `as_of` (default: today in the account's time zone); events dated after `last_posted_through` wait for the next import. Money moves from Unallocated into budgets and Recurring budgets refresh. Answers the transfers made, the occurrences completed or partial, the paused budgets skipped and any warnings.",
    tags,
    access: "user",
    events: ["funding.completed"],
    input: z.object({
      id,
      as_of: dateField()
        .meta({
          description: "Process events due up to this day; defaults to today in the first owner's time zone.",
          example: "2026-05-02",
        })
        .optional(),
    }),
    output: RunFundingResultSchema,
  }),

  eventDates: defineRoute({
    method: "GET",
    path: "/v1/bank-accounts/{id}/funding-event-dates/",
    status: 200,
    summary: "Days in (after, before] on which a funding or recurrence event of the account falls",
    description:
      "The days after `after` and up to and including `before` on which any budget of the account has a funding or recurrence event due: for calendars.",
    tags,
    access: "user",
    input: z.object({
      id,
      after: dateField().meta({ description: "Exclusive." }),
      before: dateField().meta({ description: "Inclusive." }),
    }),
    output: FundingEventDatesSchema,
  }),

  summary: defineRoute({
    method: "GET",
    path: "/v1/bank-accounts/{id}/funding-summary/",
    status: 200,
    summary: "The budgets' next funding, grouped by schedule and sorted by next date",
    description:
      "What the account's next funding events will take, one total per funding schedule, sorted by next date, with the overall total. Only active, schedulable budgets count: paused, archived, complete ones and Recurring budgets whose fill-up goal is funded instead are left out.",
    tags,
    access: "user",
    input: z.object({ id }),
    output: FundingSummarySchema,
  }),
};
