import { z } from "zod";
import { noInput } from "../http/fields";
import { defineRoute } from "../http/route";
import {
  ChannelPreferenceSchema,
  DELIVERY_MODE_TEXT,
  DELIVERY_MODES,
  DIGEST_FREQUENCIES,
  DIGEST_FREQUENCY_TEXT,
  NotificationPreferenceSchema,
} from "./preferences";

const tags = ["preferences"];
/** Why these writes record no activity event. */
const noEvents = { none: "preferences are the user's, not an account's" };

/** The preferences routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const preferenceRoutes = {
  listChannels: defineRoute({
    method: "GET",
    path: "/v1/channel-preferences/",
    status: 200,
    summary: "The caller's digest frequency for every channel",
    description:
      "The caller's digest frequency for every notification channel; a channel without a stored choice shows its default, `daily_morning`.",
    tags,
    access: "user",
    input: noInput(),
    output: z.array(ChannelPreferenceSchema),
  }),

  updateChannel: defineRoute({
    method: "PATCH",
    path: "/v1/channel-preferences/{channel}/",
    status: 200,
    summary: "Set a channel's digest frequency (404 for a channel that does not exist)",
    description: "Sets how often the channel's digest is sent. 404 for a channel that does not exist.",
    tags,
    access: "user",
    events: noEvents,
    input: z.object({
      channel: z.string().max(64).meta({ description: "The channel's identifier, e.g. `email`." }),
      digest_frequency: z
        .enum(DIGEST_FREQUENCIES)
        .meta({ description: DIGEST_FREQUENCY_TEXT, example: "weekly_sunday" }),
    }),
    output: ChannelPreferenceSchema,
  }),

  listNotifications: defineRoute({
    method: "GET",
    path: "/v1/notification-preferences/",
    status: 200,
    summary: "The caller's delivery mode for every notification kind",
    description:
      "The caller's delivery mode for every registered notification kind; a kind without a stored choice shows its default.",
    tags,
    access: "user",
    input: noInput(),
    output: z.array(NotificationPreferenceSchema),
  }),

  updateNotification: defineRoute({
    method: "PATCH",
    path: "/v1/notification-preferences/{kind}/",
    status: 200,
    summary: "Set how a notification kind is delivered (400 when it cannot be suppressed, 404 when unknown)",
    description:
      "Sets how a notification kind reaches the caller: in the digest, immediately, or not at all. 400 for `off` on a kind that cannot be suppressed; 404 for a kind that is not registered.",
    tags,
    access: "user",
    events: noEvents,
    input: z.object({
      kind: z.string().max(64).meta({ description: "The notification kind's identifier." }),
      delivery_mode: z.enum(DELIVERY_MODES).meta({ description: DELIVERY_MODE_TEXT, example: "immediate" }),
    }),
    output: NotificationPreferenceSchema,
  }),
};
