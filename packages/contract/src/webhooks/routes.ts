import { z } from "zod";
import { nameText } from "../http/control-characters";
import { booleanField, choiceListField, noContent, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import {
  DELIVERY_STATUS_TEXT,
  DELIVERY_STATUSES,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SUBSCRIPTIONS,
  WebhookDeliverySchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from "./webhook";

const tags = ["webhooks"];
/** Why these writes record no activity event. */
const noEvents = { none: "webhooks are the user's, not an account's" };

const url = z
  .string()
  .trim()
  .min(1, "This field may not be blank.")
  .max(MAX_WEBHOOK_URL_LENGTH, `Ensure this field has no more than ${MAX_WEBHOOK_URL_LENGTH} characters.`)
  .meta({
    description:
      "Where events are POSTed: https:// (http:// only when the server allows it); not a private address.",
    example: "https://hooks.example.com/allot",
  });

const subscriptions = new Set<string>(WEBHOOK_SUBSCRIPTIONS);
// A form sends a one-item list as a plain value: it is wrapped here (typed as the list a client sends).
const eventTypes = z
  .preprocess(
    (input: string[]) => {
      const value: unknown = input;
      return typeof value === "string" ? [value] : value;
    },
    z
      .array(z.string().meta({ enum: [...WEBHOOK_SUBSCRIPTIONS] }))
      .min(1, "This list may not be empty.")
      .max(WEBHOOK_SUBSCRIPTIONS.length, "Name each type once.")
      .superRefine((items, context) => {
        for (const item of items.filter((value) => !subscriptions.has(value)))
          context.addIssue({ code: "custom", message: `"${item}" is not a valid event type.`, input: item });
        if (items.includes("*") && items.length > 1)
          context.addIssue({ code: "custom", message: '"*" stands alone: it already means every type.' });
        if (new Set(items).size !== items.length)
          context.addIssue({ code: "custom", message: "Name each type once." });
      })
      .pipe(z.array(z.enum(WEBHOOK_SUBSCRIPTIONS))),
  )
  .meta({
    description: 'Types of the activity trail, or `["*"]` for all, now and later.',
    example: ["transaction.created", "budget.updated"],
  });

const description = nameText()
  .trim()
  .max(255, "Ensure this field has no more than 255 characters.")
  .meta({ description: "A note about the webhook, up to 255 characters.", example: "Home dashboard" });
const id = uuidField().meta({ description: "The webhook's id." });

/** The webhooks routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const webhookRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/v1/webhooks/",
    status: 200,
    summary: "The caller's webhooks, newest first",
    description: "The caller's webhooks, newest first, paginated, without their secrets.",
    tags,
    access: "user",
    input: z.object(pageQuery),
    output: paginated(WebhookSchema),
  }),

  create: defineRoute({
    method: "POST",
    path: "/v1/webhooks/",
    status: 201,
    summary: "Subscribe a URL to account events; the signing secret is returned once",
    description:
      "Subscribes `url` to events of the caller's accounts: each is POSTed as JSON signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The answer holds the signing `secret`, shown only here.",
    tags,
    access: "user",
    events: noEvents,
    input: z.object({
      url,
      event_types: eventTypes,
      bank_account: z
        .string()
        .nullable()
        .meta({
          description: "An account the caller owns; null or left out for every account, now and later.",
          example: "7c4e2b19-5a3d-4f8e-a6b1-9d0c3e2f4a58",
        })
        .optional(),
      description: description.optional(),
    }),
    output: WebhookWithSecretSchema,
  }),

  get: defineRoute({
    method: "GET",
    path: "/v1/webhooks/{id}/",
    status: 200,
    summary: "Retrieve one of the caller's webhooks",
    description: "One of the caller's webhooks, without its secret.",
    tags,
    access: "user",
    input: z.object({ id }),
    output: WebhookSchema,
  }),

  update: defineRoute({
    method: "PATCH",
    path: "/v1/webhooks/{id}/",
    status: 200,
    summary: "Change a webhook's URL, event types, description or enabled flag",
    description:
      "Changes the webhook's `url`, `event_types`, `description` or `enabled`. Enabling it again forgets its earlier failures.",
    tags,
    access: "user",
    events: noEvents,
    input: z.object({
      id,
      url: url.optional(),
      event_types: eventTypes.optional(),
      description: description.optional(),
      enabled: booleanField()
        .meta({
          description: "false stops its deliveries (pending ones fail); true sends new events again.",
          example: true,
        })
        .optional(),
    }),
    output: WebhookSchema,
  }),

  delete: defineRoute({
    method: "DELETE",
    path: "/v1/webhooks/{id}/",
    status: 204,
    summary: "Delete a webhook and its deliveries",
    description: "Deletes the webhook and its delivery log.",
    tags,
    access: "user",
    events: noEvents,
    input: z.object({ id }),
    output: noContent(),
  }),

  rotateSecret: defineRoute({
    method: "POST",
    path: "/v1/webhooks/{id}/rotate-secret/",
    status: 200,
    summary: "Replace the signing secret; the old one keeps signing beside it for 24 hours",
    description:
      "Issues a new signing secret, shown only in this answer. For 24 hours deliveries are signed with both secrets, so a receiver can switch without missing one.",
    tags,
    access: "user",
    events: noEvents,
    input: z.object({ id }),
    output: WebhookWithSecretSchema,
  }),

  test: defineRoute({
    method: "POST",
    path: "/v1/webhooks/{id}/test/",
    status: 202,
    summary: "Send a webhook.test event to the webhook; answers with its delivery",
    description:
      "Queues a `webhook.test` event for the webhook and answers its delivery; follow it in the delivery list. 409 when the webhook is disabled.",
    tags,
    access: "user",
    errors: [409],
    events: noEvents,
    input: z.object({ id }),
    output: WebhookDeliverySchema,
  }),

  listDeliveries: defineRoute({
    method: "GET",
    path: "/v1/webhooks/{id}/deliveries/",
    status: 200,
    summary: "A webhook's deliveries, newest first",
    description:
      "The webhook's deliveries, newest first, paginated: the event, each attempt's status and response, and when the next retry is due.",
    tags,
    access: "user",
    operationId: "webhooks-deliveries",
    input: z.object({
      id,
      status: choiceListField(DELIVERY_STATUSES)
        .meta({ description: `Repeatable: any of them. ${DELIVERY_STATUS_TEXT}` })
        .optional(),
      event_type: choiceListField(WEBHOOK_EVENT_TYPES)
        .meta({ description: "Repeatable: deliveries of any of these event types." })
        .optional(),
      ...pageQuery,
    }),
    output: paginated(WebhookDeliverySchema),
  }),

  redeliver: defineRoute({
    method: "POST",
    path: "/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver/",
    status: 202,
    summary: "Send a delivery's event again, as a new delivery with the same webhook-id",
    description:
      "Queues the delivery's event again as a new delivery with the same `webhook-id`, so a receiver that saw it already can ignore it. 409 when the webhook is disabled.",
    tags,
    access: "user",
    errors: [409],
    events: noEvents,
    input: z.object({ id, delivery_id: uuidField().meta({ description: "The delivery's id." }) }),
    output: WebhookDeliverySchema,
  }),
};
