import { z } from "zod";
import { ActivityEventSchema } from "../activity/activity-event";
import { ACTIVITY_EVENT_TYPES } from "../activity/activity-event-types";
import { dateTimeOutput } from "../http/fields";

/** What a webhook may subscribe to: the activity trail's types, or `*` alone for all of them. */
export const WEBHOOK_SUBSCRIPTIONS = [...ACTIVITY_EVENT_TYPES, "*"] as const;

/** What a delivery carries: an activity event's type, or the test event the test endpoint sends. */
export const WEBHOOK_EVENT_TYPES = [...ACTIVITY_EVENT_TYPES, "webhook.test"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A URL's longest form: the usual limit of browsers and proxies. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A webhook subscription (docs/spec/extensions.md §4); its secret is shown on create and rotation only. */
export const WebhookSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    event_types: z.array(z.enum(WEBHOOK_SUBSCRIPTIONS)),
    bank_account: z
      .uuid()
      .nullable()
      .meta({ description: "The one account it follows; null for every account its owner owns." }),
    description: z.string(),
    enabled: z.boolean(),
    created_at: dateTimeOutput(),
  })
  .meta({ id: "Webhook" });

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().meta({
    description:
      "`whsec_` + base64 of 32 random bytes: the key of `webhook-signature`. Shown only on create and rotation.",
  }),
}).meta({ id: "WebhookWithSecret" });

/** One event on its way to one webhook, with the outcome of its latest attempt. */
export const WebhookDeliverySchema = z
  .object({
    id: z.uuid(),
    event_id: z.uuid().meta({ description: "The `webhook-id` header: the same on every attempt." }),
    event_type: z.enum(WEBHOOK_EVENT_TYPES),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    last_attempt_at: dateTimeOutput().nullable(),
    next_attempt_at: dateTimeOutput().nullable().meta({ description: "Null once succeeded or failed." }),
    response_status: z.number().int().nullable(),
    response_time_ms: z.number().int().nullable(),
    last_error: z.string().nullable(),
    created_at: dateTimeOutput(),
  })
  .meta({ id: "WebhookDelivery" });

/** The test event: shaped like an activity event, of the type `webhook.test`. */
export const WebhookTestEventSchema = ActivityEventSchema.extend({
  type: z.literal("webhook.test"),
  bank_account: z.uuid().nullable(),
});

/** The body of every delivery: `{type, timestamp, data}`, `data` the event as the activity trail gives it. */
export const WebhookPayloadSchema = z
  .object({
    type: z.enum(WEBHOOK_EVENT_TYPES),
    timestamp: dateTimeOutput(),
    data: z.union([ActivityEventSchema, WebhookTestEventSchema]),
  })
  .meta({ id: "WebhookPayload" });

export type Webhook = z.infer<typeof WebhookSchema>;
export type WebhookWithSecret = z.infer<typeof WebhookWithSecretSchema>;
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;
