import { z } from "zod";
import { dateTimeOutput } from "../http/fields";

export const FUNDING_OCCURRENCE_KINDS = ["fund", "recur"] as const;
export const FUNDING_OCCURRENCE_STATUSES = ["PENDING", "PARTIAL", "COMPLETE", "SKIPPED"] as const;
export const FUNDING_OCCURRENCE_ORDERING = ["scheduled_date", "created_at"] as const;

/** One funding or recurrence event the engine has reached; read-only (the engine writes them). */
export const FundingEventOccurrenceSchema = z
  .object({
    id: z.uuid(),
    budget: z.uuid(),
    kind: z.enum(FUNDING_OCCURRENCE_KINDS),
    scheduled_date: z.iso.date(),
    status: z.enum(FUNDING_OCCURRENCE_STATUSES),
    completed_at: dateTimeOutput().nullable().meta({ description: "Set once COMPLETE; null otherwise." }),
    created_at: dateTimeOutput(),
    modified_at: dateTimeOutput(),
  })
  .meta({ id: "FundingEventOccurrence" });
