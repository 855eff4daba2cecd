import { preferenceRoutes } from "@allot/contract/preferences/routes";
import {
  listChannelPreferences,
  listNotificationPreferences,
} from "@allot/domain/preferences/list-preferences";
import {
  updateChannelPreference,
  updateNotificationPreference,
} from "@allot/domain/preferences/update-preferences";
import { bindRoutes } from "../../trpc/bind-routes";

/** Channel and notification preferences, each bound to its use case, in the contract's order. */
export const preferencesRouter = bindRoutes(preferenceRoutes, {
  listChannels: listChannelPreferences,
  updateChannel: updateChannelPreference,
  listNotifications: listNotificationPreferences,
  updateNotification: updateNotificationPreference,
});
