import { z } from "zod";

export const DIGEST_FREQUENCIES = [
  "daily_morning",
  "daily_evening",
  "twice_daily",
  "weekly_friday",
  "weekly_saturday",
  "weekly_sunday",
] as const;

export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];

export const DELIVERY_MODES = ["digest", "immediate", "off"] as const;

export type DeliveryMode = (typeof DELIVERY_MODES)[number];

export const ChannelPreferenceSchema = z
  .object({
    channel: z.string(),
    display_name: z.string(),
    digest_frequency: z.enum(DIGEST_FREQUENCIES),
  })
  .meta({ id: "ChannelPreference" });

export const NotificationPreferenceSchema = z
  .object({
    kind: z.string(),
    display_name: z.string(),
    can_suppress: z.boolean(),
    delivery_mode: z.enum(DELIVERY_MODES),
  })
  .meta({ id: "NotificationPreference" });

export type ChannelPreferenceView = z.output<typeof ChannelPreferenceSchema>;
export type NotificationPreferenceView = z.output<typeof NotificationPreferenceSchema>;
