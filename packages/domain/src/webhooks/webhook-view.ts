import type { Webhook, WebhookDelivery } from "@allot/contract/webhooks/webhook";
import type { webhookDeliveries, webhooks } from "@allot/db/schema/webhooks";
import { credentialView } from "./webhook-credential";

type WebhookRow = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** The wire Webhook: never the secrets (create and rotation add the current one). */
export const toWebhookView = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  event_types: row.eventTypes,
  bank_account: row.bankAccountId,
  description: row.description,
  enabled: row.enabled,
  disabled_reason: row.enabled ? null : row.disabledReason,
  credential: credentialView(row),
  last_failure_at: row.lastFailureAt?.toISOString() ?? null,
  last_failure_reason: row.lastFailureAt ? row.lastFailureReason : null,
  created_at: row.createdAt.toISOString(),
});

export const toDeliveryView = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  event_id: row.eventId,
  event_type: row.eventType,
  status: row.status,
  attempts: row.attempts,
  last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
  next_attempt_at: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
  response_status: row.responseStatus,
  response_time_ms: row.responseTimeMs,
  last_error: row.lastError,
  created_at: row.createdAt.toISOString(),
});
