import type { Database, Tx } from "@allot/db/create-database";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";

type FundingOccurrenceRow = typeof fundingOccurrences.$inferSelect;

/*
 * amount and moved_amount are the engine's bookkeeping, not part of the wire shape: the
 * transfers an occurrence made are where the money shows.
 */
const viewColumns = {
  id: fundingOccurrences.id,
  budgetId: fundingOccurrences.budgetId,
  kind: fundingOccurrences.kind,
  scheduledDate: fundingOccurrences.scheduledDate,
  status: fundingOccurrences.status,
  completedAt: fundingOccurrences.completedAt,
  createdAt: fundingOccurrences.createdAt,
  modifiedAt: fundingOccurrences.modifiedAt,
};

/** Occurrences with only the columns the view shows; add `.where(...)`. */
export const selectFundingOccurrences = (db: Database | Tx) =>
  db.select(viewColumns).from(fundingOccurrences).$dynamic();

/** The wire FundingEventOccurrence. */
export const toFundingOccurrenceView = (row: Pick<FundingOccurrenceRow, keyof typeof viewColumns>) => ({
  id: row.id,
  budget: row.budgetId,
  kind: row.kind,
  scheduled_date: row.scheduledDate,
  status: row.status,
  completed_at: row.completedAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
  modified_at: row.modifiedAt.toISOString(),
});
