import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, timestamp, uuid, varchar } from "drizzle-orm/pg-core";
import { bankAccounts } from "./bank-accounts";
import { uuidPrimaryKey } from "./columns";
import { users } from "./users";

/**
 * What happened that a user may be told about, one row per recipient, written in the same
 * transaction as the change that caused it (an import's failure in its own). Delivery (email now,
 * digest later, or nothing, per the user's preferences) reads these rows and stamps them.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuidPrimaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: varchar("kind", { length: 64 }).notNull(),
    bankAccountId: uuid("bank_account_id").references(() => bankAccounts.id, { onDelete: "cascade" }),
    /** What the message says: counts, amounts, names; shaped by the kind. */
    payload: jsonb("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    /** How it was delivered: emailed (immediate), digested, or suppressed (the user turned it off). */
    outcome: varchar("outcome", { length: 16 }),
  },
  (t) => [
    index("notifications_user_idx").on(t.userId, t.createdAt),
    index("notifications_account_idx").on(t.bankAccountId),
    index("notifications_undelivered_idx").on(t.createdAt).where(sql`${t.deliveredAt} is null`),
  ],
);
