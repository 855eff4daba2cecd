import type {
  ChannelPreferenceView,
  NotificationPreferenceView,
} from "@allot/contract/preferences/preferences";
import type { Database, Tx } from "@allot/db/create-database";
import { NOTIFICATION_KIND_NAMES } from "@allot/db/schema/notifications";
import { CHANNEL_NAMES, channelPreferences, notificationPreferences } from "@allot/db/schema/preferences";
import { eq } from "drizzle-orm";
import { CHANNELS, DEFAULT_DIGEST_FREQUENCY } from "../notifications/channels";
import { NOTIFICATION_KINDS } from "../notifications/notification-kinds";

/** Every channel with the user's frequency, or the default where none is stored. */
export async function channelPreferenceViews(
  db: Database | Tx,
  userId: number,
): Promise<ChannelPreferenceView[]> {
  const stored = new Map(
    (await db.select().from(channelPreferences).where(eq(channelPreferences.userId, userId))).map((row) => [
      row.channel,
      row.digestFrequency,
    ]),
  );
  return CHANNEL_NAMES.map((channel) => ({
    channel,
    display_name: CHANNELS[channel].displayName,
    digest_frequency: stored.get(channel) ?? DEFAULT_DIGEST_FREQUENCY,
  }));
}

/**
 * Every registered kind with the user's mode, or the kind's default. A stored mode of a kind that
 * cannot be suppressed is never used (it cannot be stored through the API anyway).
 */
export async function notificationPreferenceViews(
  db: Database | Tx,
  userId: number,
): Promise<NotificationPreferenceView[]> {
  const stored = new Map(
    (await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId))).map(
      (row) => [row.kind, row.deliveryMode],
    ),
  );
  return NOTIFICATION_KIND_NAMES.map((kind) => {
    const registered = NOTIFICATION_KINDS[kind];
    return {
      kind,
      display_name: registered.displayName,
      can_suppress: registered.canSuppress,
      delivery_mode: (registered.canSuppress ? stored.get(kind) : undefined) ?? registered.defaultMode,
    };
  });
}
