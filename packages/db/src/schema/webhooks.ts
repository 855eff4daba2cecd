import {
  DELIVERY_STATUSES,
  type DeliveryStatus,
  WEBHOOK_DISABLED_REASONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SUBSCRIPTIONS,
  type WebhookDisabledReason,
  type WebhookEventType,
} from "@allot/contract/webhooks/webhook";
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uuid, varchar } from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys";
import { eachOneOf, oneOf, uuidPrimaryKey } from "./columns";
import { users } from "./users";

/**
 * A user's webhook subscriptions (docs/spec/extensions.md §4). The secrets sign, so they are not
 * digested but sealed (AES-256-GCM under the server's key, `sealed1.…`; decision 0049). `bank_account_id` has no foreign key: a webhook
 * outlives its account's deletion, so the deletion's own event is still sent, then nothing more.
 */
export const webhooks = pgTable(
  "webhooks",
  {
    id: uuidPrimaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    eventTypes: text("event_types").array().$type<(typeof WEBHOOK_SUBSCRIPTIONS)[number][]>().notNull(),
    bankAccountId: uuid("bank_account_id"),
    description: varchar("description", { length: 255 }).notNull().default(""),
    enabled: boolean("enabled").notNull().default(true),
    /** Why it is off; null while enabled (and for one disabled before this was recorded). */
    disabledReason: varchar("disabled_reason", { length: 32 }).$type<WebhookDisabledReason>(),
    /**
     * The credential it answers to (decision 0048): the login session or the API key that created
     * it, or that enabled it again after a revocation. Ending that session by a reset, a password
     * change or an undone email change, or revoking that key, disables it. The session has no
     * foreign key: the daily clean-up deletes ended sessions, and an ended one cannot end again.
     */
    credentialSessionId: uuid("credential_session_id"),
    credentialApiKeyId: uuid("credential_api_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    secret: text("secret").notNull(),
    /** The secret a rotation replaced; it signs beside the new one until `previous_secret_expires_at`. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    /** The first failed attempt since the last success; five days of it disable the webhook. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    /**
     * The latest failed attempt and why (its delivery's `last_error`), kept here so a list shows
     * it in its one query (decision 0057); cleared by a success attempted after it.
     */
    lastFailureAt: timestamp("last_failure_at", { withTimezone: true }),
    lastFailureReason: text("last_failure_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhooks_user_idx").on(t.userId, t.createdAt),
    check("webhooks_event_types", eachOneOf(t.eventTypes, WEBHOOK_SUBSCRIPTIONS)),
    check("webhooks_disabled_reason", oneOf(t.disabledReason, WEBHOOK_DISABLED_REASONS)),
  ],
);

/**
 * The webhook outbox: one row per event and webhook, written in the transaction of the change
 * (recordEvent), so a rolled-back change sends nothing and a committed one is never lost. The body
 * is kept as sent, so every attempt (and a redelivery) signs the same bytes. A sender claims a row
 * (`claimed_until`) with `for update skip locked`, so two processes never make one attempt twice.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuidPrimaryKey(),
    webhookId: uuid("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: uuid("event_id").notNull(),
    eventType: varchar("event_type", { length: 48 }).$type<WebhookEventType>().notNull(),
    /** The event's account (null for a test event): nothing is sent once the owner no longer owns it. */
    bankAccountId: uuid("bank_account_id"),
    body: text("body").notNull(),
    status: varchar("status", { length: 16 }).$type<DeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).defaultNow(),
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    responseStatus: integer("response_status"),
    responseTimeMs: integer("response_time_ms"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt),
    index("webhook_deliveries_created_idx").on(t.createdAt),
    check("webhook_deliveries_status", oneOf(t.status, DELIVERY_STATUSES)),
    check("webhook_deliveries_event_type", oneOf(t.eventType, WEBHOOK_EVENT_TYPES)),
  ],
);
