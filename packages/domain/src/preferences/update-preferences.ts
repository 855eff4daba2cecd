import type { RouteInput } from "@allot/contract/http/route";
import type { preferenceRoutes } from "@allot/contract/preferences/routes";
import type { NotificationKind } from "@allot/db/schema/notifications";
import { channelPreferences, notificationPreferences } from "@allot/db/schema/preferences";
import { isChannel } from "../notifications/channels";
import { NOTIFICATION_KINDS } from "../notifications/notification-kinds";
import { NotFound, ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { channelPreferenceViews, notificationPreferenceViews } from "./preference-views";

export async function updateChannelPreference(
  { db, actor, now }: UseCaseContext,
  { channel, digest_frequency: digestFrequency }: RouteInput<typeof preferenceRoutes.updateChannel>,
) {
  if (!isChannel(channel)) throw new NotFound(`There is no channel '${channel}'.`);
  await db
    .insert(channelPreferences)
    .values({ userId: actor.userId, channel, digestFrequency })
    .onConflictDoUpdate({
      target: [channelPreferences.userId, channelPreferences.channel],
      set: { digestFrequency, modifiedAt: now },
    });
  const views = await channelPreferenceViews(db, actor.userId);
  return views.find((view) => view.channel === channel) as (typeof views)[number];
}

const isKind = (kind: string): kind is NotificationKind => Object.hasOwn(NOTIFICATION_KINDS, kind);

export async function updateNotificationPreference(
  { db, actor, now }: UseCaseContext,
  { kind, delivery_mode: deliveryMode }: RouteInput<typeof preferenceRoutes.updateNotification>,
) {
  if (!isKind(kind)) throw new NotFound(`There is no notification kind '${kind}'.`);
  if (!NOTIFICATION_KINDS[kind].canSuppress)
    throw ValidationFailed.on(
      "delivery_mode",
      `'${kind}' notifications cannot be changed: they always go out.`,
    );
  await db
    .insert(notificationPreferences)
    .values({ userId: actor.userId, kind, deliveryMode })
    .onConflictDoUpdate({
      target: [notificationPreferences.userId, notificationPreferences.kind],
      set: { deliveryMode, modifiedAt: now },
    });
  const views = await notificationPreferenceViews(db, actor.userId);
  return views.find((view) => view.kind === kind) as (typeof views)[number];
}
