import { z } from "zod";
import { dateTimeOutput } from "../http/fields";

export const FUNDING_OCCURRENCE_KINDS = ["fund", "recur"] as const;
export const FUNDING_OCCURRENCE_STATUSES = ["PENDING", "PARTIAL", "COMPLETE", "SKIPPED"] as const;
export type FundingOccurrenceKind = (typeof FUNDING_OCCURRENCE_KINDS)[number];
export type FundingOccurrenceStatus = (typeof FUNDING_OCCURRENCE_STATUSES)[number];
export const FUNDING_OCCURRENCE_ORDERING = ["scheduled_date", "created_at"] as const;

export const FUNDING_KIND_TEXT =
  "`fund` a funding event (money moves into the budget), `recur` a recurrence (a Recurring budget's cycle refreshes).";
export const FUNDING_STATUS_TEXT =
  "`PENDING` not processed yet, `PARTIAL` funded in part (Unallocated ran short), `COMPLETE` done, `SKIPPED` passed over (e.g. the budget was paused).";

/** One funding or recurrence event the engine has reached; read-only (the engine writes them). */
export const FundingEventOccurrenceSchema = z
  .object({
    id: z.uuid().meta({ description: "The occurrence's id." }),
    budget: z.uuid().meta({ description: "The id of the budget the event belongs to." }),
    kind: z.enum(FUNDING_OCCURRENCE_KINDS).meta({ description: FUNDING_KIND_TEXT, example: "fund" }),
    scheduled_date: z.iso.date().meta({ description: "The day the event was due.", example: "2026-05-01" }),
    status: z
      .enum(FUNDING_OCCURRENCE_STATUSES)
      .meta({ description: FUNDING_STATUS_TEXT, example: "COMPLETE" }),
    completed_at: dateTimeOutput().nullable().meta({ description: "Set once COMPLETE; null otherwise." }),
    created_at: dateTimeOutput().meta({ description: "When the engine first reached the event." }),
    modified_at: dateTimeOutput().meta({ description: "When it last changed." }),
  })
  .meta({
    id: "FundingEventOccurrence",
    description: "A funding or recurrence event of a budget and how far it went.",
  });
