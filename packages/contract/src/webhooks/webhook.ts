import { z } from "zod";
import { ACTIVITY_EVENT_SCHEMAS, ActivityEventFieldsSchema } from "../activity/activity-event";
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
export const DELIVERY_STATUS_TEXT =
  "`pending` not yet delivered (retries may follow), `succeeded` a 2xx answer came back, `failed` the retries ran out.";
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Why a webhook is off (decision 0048): the owner, the receiver, or a credential taken back. */
export const WEBHOOK_DISABLED_REASONS = [
  "owner",
  "gone",
  "failing",
  "credential_revoked",
  "email_change_undone",
] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];
export const WEBHOOK_DISABLED_REASON_TEXT =
  "`owner` turned off by PATCH, `gone` the receiver answered 410, `failing` five days of failures, " +
  "`credential_revoked` the credential it answers to was revoked (an API key) or signed out by a " +
  "password reset, a password change or an undone email change (a login), `email_change_undone` " +
  "created after the request of an email change that was then undone. Null while enabled, and for " +
  "a webhook disabled before the reason was recorded.";

/** How a webhook's credential is named: a login session, or an API key by its id. */
export const WEBHOOK_CREDENTIAL_KINDS = ["login", "api_key"] as const;

/** A webhook subscription (docs/spec/extensions.md §4); its secret is shown on create and rotation only. */
export const WebhookSchema = z
  .object({
    id: z.uuid().meta({ description: "The webhook's id.", example: "2b4d6f8a-0c1e-4a3c-9e5b-7d9f1b3d5e7a" }),
    url: z
      .string()
      .meta({ description: "Where events are POSTed.", example: "https://hooks.example.com/allot" }),
    event_types: z.array(z.enum(WEBHOOK_SUBSCRIPTIONS)).meta({
      description: 'The activity types it receives; `["*"]` for all, now and later.',
      example: ["transaction.created", "budget.updated"],
    }),
    bank_account: z
      .uuid()
      .nullable()
      .meta({ description: "The one account it follows; null for every account its owner owns." }),
    description: z.string().meta({ description: "The caller's note about it.", example: "Home dashboard" }),
    enabled: z.boolean().meta({
      description: "False: no deliveries (the service disables a webhook that keeps failing).",
      example: true,
    }),
    disabled_reason: z
      .enum(WEBHOOK_DISABLED_REASONS)
      .nullable()
      .meta({ description: WEBHOOK_DISABLED_REASON_TEXT, example: null }),
    credential: z
      .object({
        kind: z.enum(WEBHOOK_CREDENTIAL_KINDS).meta({
          description: "`login` a password login's session, `api_key` an API key.",
          example: "api_key",
        }),
        api_key: z
          .uuid()
          .nullable()
          .meta({ description: "The key's id (`GET /users/me/api-keys/{uuid}/`); null for a login." }),
      })
      .nullable()
      .meta({
        description:
          "The credential it answers to: the one that created it, or that enabled it again after a revocation disabled it. Revoking that key, or signing that login out by a password reset, a password change or an undone email change, disables the webhook. Null for a webhook created before this was recorded.",
      }),
    last_failure_at: dateTimeOutput().nullable().meta({
      description:
        "When its latest failed delivery attempt was made; null when none failed, or when an attempt made since succeeded.",
      example: "2026-05-02T09:05:01Z",
    }),
    last_failure_reason: z.string().nullable().meta({
      description:
        "Why that attempt failed, as the delivery's `last_error` says it (a refused URL and the setting that refuses it, `HTTP 500`, a timeout); null with `last_failure_at`.",
      example: "HTTP 500",
    }),
    created_at: dateTimeOutput().meta({
      description: "When it was created.",
      example: "2026-05-02T09:00:00Z",
    }),
  })
  .meta({ id: "Webhook", description: "A subscription of a URL to account events." });

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().meta({
    description:
      "`whsec_` + base64 of 32 random bytes: the key of `webhook-signature`. Shown only on create and rotation.",
  }),
}).meta({ id: "WebhookWithSecret", description: "A webhook with its signing secret (shown once)." });

/** One event on its way to one webhook, with the outcome of its latest attempt. */
export const WebhookDeliverySchema = z
  .object({
    id: z.uuid().meta({ description: "The delivery's id." }),
    event_id: z.uuid().meta({ description: "The `webhook-id` header: the same on every attempt." }),
    event_type: z
      .enum(WEBHOOK_EVENT_TYPES)
      .meta({ description: "The event's type.", example: "transaction.created" }),
    status: z.enum(DELIVERY_STATUSES).meta({ description: DELIVERY_STATUS_TEXT, example: "succeeded" }),
    attempts: z.number().int().meta({ description: "How many times it was sent.", example: 1 }),
    last_attempt_at: dateTimeOutput().nullable().meta({
      description: "When it was last sent; null before the first attempt.",
      example: "2026-05-02T09:00:01Z",
    }),
    next_attempt_at: dateTimeOutput().nullable().meta({ description: "Null once succeeded or failed." }),
    response_status: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The HTTP status of the latest answer; null when none came.", example: 200 }),
    response_time_ms: z
      .number()
      .int()
      .nullable()
      .meta({ description: "How long the latest answer took, in milliseconds.", example: 184 }),
    last_error: z.string().nullable().meta({
      description: "Why the latest attempt failed (a timeout, a refused address), or null.",
      example: null,
    }),
    created_at: dateTimeOutput().meta({
      description: "When the delivery was queued.",
      example: "2026-05-02T09:00:00Z",
    }),
  })
  .meta({
    id: "WebhookDelivery",
    description: "One event on its way to one webhook, with its latest attempt.",
  });

/** The test event: shaped like an activity event, of the type `webhook.test`. */
const WebhookTestEventSchema = ActivityEventFieldsSchema.extend({
  type: z.literal("webhook.test"),
  bank_account: z.uuid().nullable(),
  data: z.object({ webhook: z.uuid().meta({ description: "The webhook the test was sent to." }) }),
});

/** What a delivery may carry, by type: an activity event, or the test event. */
const WEBHOOK_EVENT_SCHEMAS = { ...ACTIVITY_EVENT_SCHEMAS, "webhook.test": WebhookTestEventSchema };

/** The event a delivery of type `T` carries (of any type, without one: narrow it on `type`). */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = z.output<
  (typeof WEBHOOK_EVENT_SCHEMAS)[T]
>;

/** A delivery of one type: `{type, timestamp, data}`, `data` the event as the activity trail gives it. */
const payloadOf = <T extends WebhookEventType>(type: T) =>
  z.object({ type: z.literal(type), timestamp: dateTimeOutput(), data: WEBHOOK_EVENT_SCHEMAS[type] });

type WebhookPayloadSchemas = { [T in WebhookEventType]: ReturnType<typeof payloadOf<T>> };
type AnyWebhookPayloadSchema = WebhookPayloadSchemas[WebhookEventType];

/** The body of every delivery, narrowed by its `type` (the event's own) to the event of that type. */
export const WebhookPayloadSchema = z
  .discriminatedUnion(
    "type",
    WEBHOOK_EVENT_TYPES.map(payloadOf) as [AnyWebhookPayloadSchema, ...AnyWebhookPayloadSchema[]],
  )
  .meta({ id: "WebhookPayload" });

export type Webhook = z.infer<typeof WebhookSchema>;
export type WebhookWithSecret = z.infer<typeof WebhookWithSecretSchema>;
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
/** A delivery's body of type `T` (of any type, without one: narrow it on `type`). */
export type WebhookPayload<T extends WebhookEventType = WebhookEventType> = z.output<
  WebhookPayloadSchemas[T]
>;
