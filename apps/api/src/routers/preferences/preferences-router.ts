import {
  listChannelPreferencesRoute,
  listNotificationPreferencesRoute,
  updateChannelPreferenceRoute,
  updateNotificationPreferenceRoute,
} from "@allot/contract/preferences/routes";
import {
  listChannelPreferences,
  listNotificationPreferences,
} from "@allot/domain/preferences/list-preferences";
import {
  updateChannelPreference,
  updateNotificationPreference,
} from "@allot/domain/preferences/update-preferences";
import { procedureFor, router } from "../../trpc/trpc";

/** Channel and notification preferences, in the contract's order. */
export const preferencesRouter = router({
  listChannels: procedureFor(listChannelPreferencesRoute).query(({ ctx }) => listChannelPreferences(ctx)),
  updateChannel: procedureFor(updateChannelPreferenceRoute).mutation(({ ctx, input }) =>
    updateChannelPreference(ctx, input),
  ),
  listNotifications: procedureFor(listNotificationPreferencesRoute).query(({ ctx }) =>
    listNotificationPreferences(ctx),
  ),
  updateNotification: procedureFor(updateNotificationPreferenceRoute).mutation(({ ctx, input }) =>
    updateNotificationPreference(ctx, input),
  ),
});
