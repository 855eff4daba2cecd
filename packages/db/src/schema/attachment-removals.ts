import { index, integer, pgTable, text, timestamp, varchar } from "drizzle-orm/pg-core";

/**
 * Receipt files to delete from the attachment store (docs/decisions/0038-receipts.md): written in
 * the transaction that drops the reference (a replaced or removed file; a deleted transaction or
 * account, by the AFTER DELETE trigger of migration 0020), so a file outlives its row only until
 * the removal runs, and a rolled-back change removes nothing. An upload queues its own new key
 * `not_before` a grace period ahead and the commit that references it takes the row back out: a
 * request that failed or died after storing the file leaves it to be removed later.
 */
export const attachmentRemovals = pgTable(
  "attachment_removals",
  {
    /** The store's key: `transactions/<id>/<image|document>/<uuid>`. */
    key: varchar("key", { length: 200 }).primaryKey(),
    queuedAt: timestamp("queued_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** Not tried before this instant: an upload's grace period, then each failure's backoff. */
    notBefore: timestamp("not_before", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("attachment_removals_due_idx").on(t.notBefore)],
);
