import type { ChangeType } from "@allot/contract/changes/change";
import { bigint, check, index, pgTable, primaryKey, timestamp, uuid, varchar } from "drizzle-orm/pg-core";
import { bankAccounts } from "./bank-accounts";
import { oneOf } from "./columns";

/** The feed's types whose deletions leave a tombstone (each table's trigger names its own). */
export const TOMBSTONE_TYPES = [
  "budget",
  "transaction",
  "allocation",
  "internal_transaction",
  "funding_occurrence",
] as const satisfies readonly ChangeType[];
export type TombstoneType = (typeof TOMBSTONE_TYPES)[number];

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
    objectType: varchar("object_type", { length: 24 }).$type<TombstoneType>().notNull(),
    objectId: uuid("object_id").notNull(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The feed's order: (change number, type, id).
    primaryKey({ columns: [t.bankAccountId, t.changeSeq, t.objectType, t.objectId] }),
    index("change_tombstones_deleted_at_idx").on(t.deletedAt),
    check("change_tombstones_object_type", oneOf(t.objectType, TOMBSTONE_TYPES)),
  ],
);
