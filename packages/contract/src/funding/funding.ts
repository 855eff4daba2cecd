import { z } from "zod";
import { moneyOutput } from "../http/fields";

export const RunFundingResultSchema = z
  .object({
    transfers: z.number().int().meta({ description: "Internal transactions this run made." }),
    occurrences_completed: z
      .number()
      .int()
      .meta({ description: "Events fully funded or refreshed.", examples: [3] }),
    occurrences_partial: z
      .number()
      .int()
      .meta({ description: "Events funded only in part: Unallocated ran short.", examples: [0] }),
    warnings: z
      .array(z.string())
      .meta({ description: "What a person should know, e.g. a shortfall.", examples: [[]] }),
    skipped_budgets: z
      .array(z.string())
      .meta({ description: "Names of paused budgets whose events were skipped." }),
  })
  .meta({ id: "RunFundingResult", description: "What a funding run did." });

export const FundingEventDatesSchema = z
  .object({
    dates: z.array(z.iso.date()).meta({
      description: "The days with an event due, ascending.",
      examples: [["2026-05-15", "2026-06-01"]],
    }),
  })
  .meta({ id: "FundingEventDates", description: "The days on which funding or recurrence events fall." });

export const FundingScheduleTotalSchema = z
  .object({
    schedule: z.string().meta({ description: "The RRULE text the budgets share." }),
    next_date: z.iso.date().meta({ description: "The schedule's next event day.", examples: ["2026-06-01"] }),
    total_amount: moneyOutput().meta({
      description: "What its budgets' next funding takes together.",
      examples: ["350.00"],
    }),
    currency: z.string().meta({ description: "The account's currency.", examples: ["USD"] }),
    budget_count: z
      .number()
      .int()
      .meta({ description: "How many budgets share the schedule.", examples: [3] }),
  })
  .meta({ id: "FundingScheduleTotal", description: "The next funding of the budgets sharing one schedule." });

export const FundingSummarySchema = z
  .object({
    schedules: z
      .array(FundingScheduleTotalSchema)
      .meta({ description: "One total per schedule, by next date." }),
    total_amount: moneyOutput().meta({
      description: "The sum of the schedules' totals.",
      examples: ["350.00"],
    }),
    currency: z.string().meta({ description: "The account's currency.", examples: ["USD"] }),
  })
  .meta({ id: "FundingSummary", description: "What the account's next funding events will take." });
