import type { WebhookPayload } from "@allot/contract/webhooks/webhook";

/** A delivery's body: `{type, timestamp, data}` with the event as the activity trail gives it. */
export const webhookBody = (event: WebhookPayload["data"]): string =>
  JSON.stringify({ type: event.type, timestamp: event.occurred_at, data: event } satisfies WebhookPayload);
