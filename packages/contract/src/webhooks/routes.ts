import { z } from "zod";
import { booleanField, choiceListField, noContent, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import {
  DELIVERY_STATUSES,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SUBSCRIPTIONS,
  WebhookDeliverySchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from "./webhook";

const tags = ["webhooks"];

const url = z
  .string()
  .trim()
  .min(1, "This field may not be blank.")
  .max(MAX_WEBHOOK_URL_LENGTH, `Ensure this field has no more than ${MAX_WEBHOOK_URL_LENGTH} characters.`)
  .meta({ description: "https:// (http:// only when the server allows it); not a private address." });

const subscriptions = new Set<string>(WEBHOOK_SUBSCRIPTIONS);
const eventTypes = z
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
  .pipe(z.array(z.enum(WEBHOOK_SUBSCRIPTIONS)))
  .meta({ description: 'Types of the activity trail, or `["*"]` for all, now and later.' });

const description = z.string().trim().max(255, "Ensure this field has no more than 255 characters.");
const id = uuidField();

export const listWebhooksRoute = defineRoute({
  method: "GET",
  path: "/v1/webhooks/",
  status: 200,
  summary: "The caller's webhooks, newest first",
  tags,
  access: "user",
  input: z.object(pageQuery),
  output: paginated(WebhookSchema),
});

export const createWebhookRoute = defineRoute({
  method: "POST",
  path: "/v1/webhooks/",
  status: 201,
  summary: "Subscribe a URL to account events; the signing secret is returned once",
  tags,
  access: "user",
  input: z.object({
    url,
    event_types: eventTypes,
    bank_account: z.string().nullable().optional().meta({
      description: "An account the caller owns; null or left out for every account, now and later.",
    }),
    description: description.optional(),
  }),
  output: WebhookWithSecretSchema,
});

export const getWebhookRoute = defineRoute({
  method: "GET",
  path: "/v1/webhooks/{id}/",
  status: 200,
  summary: "Retrieve one of the caller's webhooks",
  tags,
  access: "user",
  input: z.object({ id }),
  output: WebhookSchema,
});

export const updateWebhookRoute = defineRoute({
  method: "PATCH",
  path: "/v1/webhooks/{id}/",
  status: 200,
  summary: "Change a webhook's URL, event types, description or enabled flag",
  tags,
  access: "user",
  input: z.object({
    id,
    url: url.optional(),
    event_types: eventTypes.optional(),
    description: description.optional(),
    enabled: booleanField()
      .optional()
      .meta({ description: "false stops its deliveries (pending ones fail); true sends new events again." }),
  }),
  output: WebhookSchema,
});

export const deleteWebhookRoute = defineRoute({
  method: "DELETE",
  path: "/v1/webhooks/{id}/",
  status: 204,
  summary: "Delete a webhook and its deliveries",
  tags,
  access: "user",
  input: z.object({ id }),
  output: noContent(),
});

export const rotateWebhookSecretRoute = defineRoute({
  method: "POST",
  path: "/v1/webhooks/{id}/rotate-secret/",
  status: 200,
  summary: "Replace the signing secret; the old one keeps signing beside it for 24 hours",
  tags,
  access: "user",
  input: z.object({ id }),
  output: WebhookWithSecretSchema,
});

export const testWebhookRoute = defineRoute({
  method: "POST",
  path: "/v1/webhooks/{id}/test/",
  status: 202,
  summary: "Send a webhook.test event to the webhook; answers with its delivery",
  tags,
  access: "user",
  input: z.object({ id }),
  output: WebhookDeliverySchema,
});

export const listWebhookDeliveriesRoute = defineRoute({
  method: "GET",
  path: "/v1/webhooks/{id}/deliveries/",
  status: 200,
  summary: "A webhook's deliveries, newest first",
  tags,
  access: "user",
  input: z.object({
    id,
    status: choiceListField(DELIVERY_STATUSES).optional(),
    event_type: choiceListField(WEBHOOK_EVENT_TYPES).optional(),
    ...pageQuery,
  }),
  output: paginated(WebhookDeliverySchema),
});

export const redeliverWebhookRoute = defineRoute({
  method: "POST",
  path: "/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver/",
  status: 202,
  summary: "Send a delivery's event again, as a new delivery with the same webhook-id",
  tags,
  access: "user",
  input: z.object({ id, delivery_id: uuidField() }),
  output: WebhookDeliverySchema,
});
