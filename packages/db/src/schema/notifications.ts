import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, timestamp, uuid, varchar } from "drizzle-orm/pg-core";
import { bankAccounts } from "./bank-accounts";
import { oneOf, uuidPrimaryKey } from "./columns";
import { users } from "./users";

/**
 * Every notification kind (docs/spec/operations.md §Notifications). How each is delivered, and
 * whether it may be turned off, is the domain's NOTIFICATION_KINDS, keyed by this list.
 */
export const NOTIFICATION_KIND_NAMES = [
  "funding_complete",
  "import_complete",
  "transaction_posted",
  "balance_mismatch",
  "import_error",
  "recurring_budget_refreshed",
  "invitation_accepted",
  "invitation_declined",
  "password_changed",
  "email_changed",
  "email_change_requested",
  "api_key_expiring",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KIND_NAMES)[number];

/** How a notification went out: emailed at once, in a digest, or not at all (the user turned it off). */
export const NOTIFICATION_OUTCOMES = ["emailed", "digested", "suppressed"] as const;
export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number];

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
    kind: varchar("kind", { length: 64 }).$type<NotificationKind>().notNull(),
    bankAccountId: uuid("bank_account_id").references(() => bankAccounts.id, { onDelete: "cascade" }),
    /** What the message says: counts, amounts, names; shaped by the kind. */
    payload: jsonb("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    /** How it was delivered; null until then. */
    outcome: varchar("outcome", { length: 16 }).$type<NotificationOutcome>(),
  },
  (t) => [
    index("notifications_user_idx").on(t.userId, t.createdAt),
    index("notifications_account_idx").on(t.bankAccountId),
    index("notifications_undelivered_idx").on(t.createdAt).where(sql`${t.deliveredAt} is null`),
    check("notifications_kind", oneOf(t.kind, NOTIFICATION_KIND_NAMES)),
    check("notifications_outcome", oneOf(t.outcome, NOTIFICATION_OUTCOMES)),
  ],
);
