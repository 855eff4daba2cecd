import {
  listChannelPreferencesRoute,
  listNotificationPreferencesRoute,
  updateChannelPreferenceRoute,
  updateNotificationPreferenceRoute,
} from "@allot/contract/preferences/routes";
import {
  channelPreferenceViews,
  notificationPreferenceViews,
} from "@allot/domain/preferences/preference-views";
import {
  updateChannelPreference,
  updateNotificationPreference,
} from "@allot/domain/preferences/update-preferences";
import { actorOf, procedureFor, router } from "../../trpc/trpc";

/** Channel and notification preferences, in the contract's order. */
export const preferencesRouter = router({
  listChannels: procedureFor(listChannelPreferencesRoute).query(({ ctx }) =>
    channelPreferenceViews(ctx.db, actorOf(ctx).userId),
  ),
  updateChannel: procedureFor(updateChannelPreferenceRoute).mutation(({ ctx, input }) =>
    updateChannelPreference(ctx.db, actorOf(ctx), input.channel, input.digest_frequency),
  ),
  listNotifications: procedureFor(listNotificationPreferencesRoute).query(({ ctx }) =>
    notificationPreferenceViews(ctx.db, actorOf(ctx).userId),
  ),
  updateNotification: procedureFor(updateNotificationPreferenceRoute).mutation(({ ctx, input }) =>
    updateNotificationPreference(ctx.db, actorOf(ctx), input.kind, input.delivery_mode),
  ),
});
