import { bigint, index, pgTable, primaryKey, timestamp, uuid, varchar } from "drizzle-orm/pg-core";
import { bankAccounts } from "./bank-accounts";

/**
 * What the change feed says of deleted objects (docs/spec/extensions.md §2), kept
 * CHANGES_RETENTION_DAYS. Written by AFTER DELETE statement triggers (migration 0018), so cascaded
 * deletes leave theirs too; an account's own deletion leaves none (its feed is gone with it).
 */
export const changeTombstones = pgTable(
  "change_tombstones",
  {
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "cascade" }),
    changeSeq: bigint("change_seq", { mode: "number" }).notNull(),
    /** The feed's type: budget, transaction, allocation, internal_transaction, funding_occurrence. */
    objectType: varchar("object_type", { length: 24 }).notNull(),
    objectId: uuid("object_id").notNull(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The feed's order: (change number, type, id).
    primaryKey({ columns: [t.bankAccountId, t.changeSeq, t.objectType, t.objectId] }),
    index("change_tombstones_deleted_at_idx").on(t.deletedAt),
  ],
);
