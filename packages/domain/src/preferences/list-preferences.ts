import type { UseCaseContext } from "../shared/use-case-context";
import { channelPreferenceViews, notificationPreferenceViews } from "./preference-views";

/** The caller's digest frequency for every channel. */
export const listChannelPreferences = ({ db, actor }: UseCaseContext) =>
  channelPreferenceViews(db, actor.userId);

/** The caller's delivery mode for every notification kind. */
export const listNotificationPreferences = ({ db, actor }: UseCaseContext) =>
  notificationPreferenceViews(db, actor.userId);
