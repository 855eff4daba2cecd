import { z } from "zod";
import { noInput } from "../http/fields";
import { defineRoute } from "../http/route";
import {
  ChannelPreferenceSchema,
  DELIVERY_MODES,
  DIGEST_FREQUENCIES,
  NotificationPreferenceSchema,
} from "./preferences";

const tags = ["preferences"];

export const listChannelPreferencesRoute = defineRoute({
  method: "GET",
  path: "/v1/channel-preferences/",
  status: 200,
  summary: "The caller's digest frequency for every channel",
  tags,
  access: "user",
  input: noInput(),
  output: z.array(ChannelPreferenceSchema),
});

export const updateChannelPreferenceRoute = defineRoute({
  method: "PATCH",
  path: "/v1/channel-preferences/{channel}/",
  status: 200,
  summary: "Set a channel's digest frequency (404 for a channel that does not exist)",
  tags,
  access: "user",
  input: z.object({ channel: z.string().max(64), digest_frequency: z.enum(DIGEST_FREQUENCIES) }),
  output: ChannelPreferenceSchema,
});

export const listNotificationPreferencesRoute = defineRoute({
  method: "GET",
  path: "/v1/notification-preferences/",
  status: 200,
  summary: "The caller's delivery mode for every notification kind",
  tags,
  access: "user",
  input: noInput(),
  output: z.array(NotificationPreferenceSchema),
});

export const updateNotificationPreferenceRoute = defineRoute({
  method: "PATCH",
  path: "/v1/notification-preferences/{kind}/",
  status: 200,
  summary: "Set how a notification kind is delivered (400 when it cannot be suppressed, 404 when unknown)",
  tags,
  access: "user",
  input: z.object({ kind: z.string().max(64), delivery_mode: z.enum(DELIVERY_MODES) }),
  output: NotificationPreferenceSchema,
});
