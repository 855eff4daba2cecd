import { MAX_DETAILS_ITEMS, type TransactionDetailsItem } from "@allot/contract/import/import";
import type { Client } from "@allot/sdk/client";
import type { RowOutcome } from "./send-sync";

export interface DetailsOutcome {
  sent: number;
  applied: number;
  skipped_has_details: number;
  skipped_pending: number;
  not_found: number;
  /** The server's per-item warnings (an unknown category, a cut merchant name), by file line. */
  warnings: { line: number; warnings: string[] }[];
}

/** The rows the sync listed in details_needed (a transaction without details) that carry details. */
export function detailsToSend(rows: readonly RowOutcome[]): { line: number; item: TransactionDetailsItem }[] {
  return rows.flatMap(({ row, transaction }) =>
    transaction && row.details && !row.is_pending
      ? [
          {
            line: row.line,
            item: {
              transaction,
              details: row.details,
              ...(row.category === undefined ? {} : { category: row.category }),
            },
          },
        ]
      : [],
  );
}

/** Sends the scraped rows' details to transaction-details, in requests of at most MAX_DETAILS_ITEMS. */
export async function sendDetails(
  imports: Client["imports"],
  accountId: string,
  rows: readonly RowOutcome[],
): Promise<DetailsOutcome> {
  const items = detailsToSend(rows);
  const outcome: DetailsOutcome = {
    sent: items.length,
    applied: 0,
    skipped_has_details: 0,
    skipped_pending: 0,
    not_found: 0,
    warnings: [],
  };
  for (let start = 0; start < items.length; start += MAX_DETAILS_ITEMS) {
    const batch = items.slice(start, start + MAX_DETAILS_ITEMS);
    const answer = await imports.transactionDetails({ id: accountId, details: batch.map((b) => b.item) });
    outcome.applied += answer.applied;
    outcome.skipped_has_details += answer.skipped_has_details;
    outcome.skipped_pending += answer.skipped_pending;
    outcome.not_found += answer.not_found;
    answer.results.forEach((result, i) => {
      const line = batch[i]?.line;
      if (line !== undefined && result.warnings.length > 0)
        outcome.warnings.push({ line, warnings: result.warnings });
    });
  }
  return outcome;
}
