import type { WebhookEvent, WebhookPayload } from "@allot/contract/webhooks/webhook";

/**
 * A delivery's body: `{type, timestamp, data}` with the event as the activity trail gives it. Its
 * `type` is the event's own, so each body is the WebhookPayload of that type.
 */
export const webhookBody = (event: WebhookEvent): string =>
  JSON.stringify({
    type: event.type,
    timestamp: event.occurred_at,
    data: event,
  } satisfies Pick<WebhookPayload, keyof WebhookPayload>);
