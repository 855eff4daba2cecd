import { z } from "zod";
import { moneyOutput } from "../http/fields";

export const RunFundingResultSchema = z
  .object({
    transfers: z.number().int().meta({ description: "Internal transactions this run made." }),
    occurrences_completed: z.number().int(),
    occurrences_partial: z.number().int(),
    warnings: z.array(z.string()),
    skipped_budgets: z
      .array(z.string())
      .meta({ description: "Names of paused budgets whose events were skipped." }),
  })
  .meta({ id: "RunFundingResult" });

export const FundingEventDatesSchema = z
  .object({ dates: z.array(z.iso.date()) })
  .meta({ id: "FundingEventDates" });

export const FundingScheduleTotalSchema = z
  .object({
    schedule: z.string().meta({ description: "The RRULE text the budgets share." }),
    next_date: z.iso.date(),
    total_amount: moneyOutput(),
    currency: z.string(),
    budget_count: z.number().int(),
  })
  .meta({ id: "FundingScheduleTotal" });

export const FundingSummarySchema = z
  .object({
    schedules: z.array(FundingScheduleTotalSchema),
    total_amount: moneyOutput(),
    currency: z.string(),
  })
  .meta({ id: "FundingSummary" });
