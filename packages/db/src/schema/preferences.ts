import { integer, pgTable, primaryKey, timestamp, varchar } from "drizzle-orm/pg-core";
import { users } from "./users";

/** A user's chosen delivery for one notification kind; a kind without a row uses its default. */
export const notificationPreferences = pgTable(
  "notification_preferences",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: varchar("kind", { length: 64 }).notNull(),
    /** digest, immediate, off */
    deliveryMode: varchar("delivery_mode", { length: 16 }).notNull(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/** A user's digest frequency for one channel; a channel without a row uses daily_morning. */
export const channelPreferences = pgTable(
  "channel_preferences",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    channel: varchar("channel", { length: 32 }).notNull(),
    digestFrequency: varchar("digest_frequency", { length: 32 }).notNull(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channel] })],
);
