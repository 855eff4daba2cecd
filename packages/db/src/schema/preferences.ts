import {
  DELIVERY_MODES,
  type DeliveryMode,
  DIGEST_FREQUENCIES,
  type DigestFrequency,
} from "@allot/contract/preferences/preferences";
import { check, integer, pgTable, primaryKey, timestamp, varchar } from "drizzle-orm/pg-core";
import { oneOf } from "./columns";
import { NOTIFICATION_KIND_NAMES, type NotificationKind } from "./notifications";
import { users } from "./users";

/** Every delivery channel (docs/spec/operations.md §Notifications): email only, for now. */
export const CHANNEL_NAMES = ["email"] as const;
export type ChannelName = (typeof CHANNEL_NAMES)[number];

/** A user's chosen delivery for one notification kind; a kind without a row uses its default. */
export const notificationPreferences = pgTable(
  "notification_preferences",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: varchar("kind", { length: 64 }).$type<NotificationKind>().notNull(),
    deliveryMode: varchar("delivery_mode", { length: 16 }).$type<DeliveryMode>().notNull(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind] }),
    check("notification_preferences_kind", oneOf(t.kind, NOTIFICATION_KIND_NAMES)),
    check("notification_preferences_delivery_mode", oneOf(t.deliveryMode, DELIVERY_MODES)),
  ],
);

/** A user's digest frequency for one channel; a channel without a row uses daily_morning. */
export const channelPreferences = pgTable(
  "channel_preferences",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    channel: varchar("channel", { length: 32 }).$type<ChannelName>().notNull(),
    digestFrequency: varchar("digest_frequency", { length: 32 }).$type<DigestFrequency>().notNull(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.channel] }),
    check("channel_preferences_channel", oneOf(t.channel, CHANNEL_NAMES)),
    check("channel_preferences_digest_frequency", oneOf(t.digestFrequency, DIGEST_FREQUENCIES)),
  ],
);
