import { z } from "zod";
import { moneyOutput } from "../http/fields";

export const RunFundingResultSchema = z
  .object({
    transfers: z.number().int().meta({ description: "Internal transactions this run made.", example: 3 }),
    occurrences_completed: z
      .number()
      .int()
      .meta({ description: "Events fully funded or refreshed.", example: 3 }),
    occurrences_partial: z
      .number()
      .int()
      .meta({ description: "Events funded only in part: Unallocated ran short.", example: 0 }),
    warnings: z
      .array(z.string())
      .meta({ description: "What a person should know, e.g. a shortfall.", example: [] }),
    skipped_budgets: z
      .array(z.string())
      .meta({ description: "Names of paused budgets whose events were skipped." }),
  })
  .meta({ id: "RunFundingResult", description: "What a funding run did." });

export const FundingEventDatesSchema = z
  .object({
    dates: z.array(z.iso.date()).meta({
      description: "The days with an event due, ascending.",
      example: ["2026-05-15", "2026-06-01"],
    }),
  })
  .meta({ id: "FundingEventDates", description: "The days on which funding or recurrence events fall." });

export const FundingScheduleTotalSchema = z
  .object({
    schedule: z
      .string()
      .meta({ description: "The RRULE text the budgets share.", example: "RRULE:FREQ=MONTHLY;BYMONTHDAY=1" }),
    next_date: z.iso.date().meta({ description: "The schedule's next event day.", example: "2026-06-01" }),
    total_amount: moneyOutput().meta({
      description: "What its budgets' next funding takes together.",
      example: "350.00",
    }),
    currency: z.string().meta({ description: "The account's currency.", example: "USD" }),
    budget_count: z.number().int().meta({ description: "How many budgets share the schedule.", example: 3 }),
  })
  .meta({ id: "FundingScheduleTotal", description: "The next funding of the budgets sharing one schedule." });

export const FundingSummarySchema = z
  .object({
    schedules: z
      .array(FundingScheduleTotalSchema)
      .meta({ description: "One total per schedule, by next date." }),
    total_amount: moneyOutput().meta({
      description: "The sum of the schedules' totals.",
      example: "350.00",
    }),
    currency: z.string().meta({ description: "The account's currency.", example: "USD" }),
  })
  .meta({ id: "FundingSummary", description: "What the account's next funding events will take." });
