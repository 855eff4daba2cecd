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

export const DIGEST_FREQUENCY_TEXT =
  "How often the channel's digest is sent: `daily_morning` (about 7 am, the default), `daily_evening` (about 6 pm), `twice_daily`, `weekly_friday`, `weekly_saturday` or `weekly_sunday`.";
export const DELIVERY_MODE_TEXT =
  "`digest` in the channel's digest, `immediate` as it happens, `off` not at all (only where `can_suppress`).";

export const ChannelPreferenceSchema = z
  .object({
    channel: z.string().meta({ description: "The channel's identifier.", example: "email" }),
    display_name: z.string().meta({ description: "The channel's name for people.", example: "Email" }),
    digest_frequency: z
      .enum(DIGEST_FREQUENCIES)
      .meta({ description: DIGEST_FREQUENCY_TEXT, example: "daily_morning" }),
  })
  .meta({ id: "ChannelPreference", description: "The caller's digest frequency on one channel." });

export const NotificationPreferenceSchema = z
  .object({
    kind: z
      .string()
      .meta({ description: "The notification kind's identifier.", example: "transaction_posted" }),
    display_name: z
      .string()
      .meta({ description: "The kind's name for people.", example: "Transaction posted" }),
    can_suppress: z.boolean().meta({ description: "The kind may be turned `off`.", example: true }),
    delivery_mode: z.enum(DELIVERY_MODES).meta({ description: DELIVERY_MODE_TEXT, example: "digest" }),
  })
  .meta({ id: "NotificationPreference", description: "How one notification kind reaches the caller." });

export type ChannelPreferenceView = z.output<typeof ChannelPreferenceSchema>;
export type NotificationPreferenceView = z.output<typeof NotificationPreferenceSchema>;
