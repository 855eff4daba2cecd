import {
  ACTIVITY_EVENT_TYPES,
  ACTOR_KINDS,
  type ActivityEventType,
  type ActorKind,
} from "@allot/contract/activity/activity-event-types";
import { bigint, check, index, jsonb, pgTable, text, timestamp, uuid, varchar } from "drizzle-orm/pg-core";
import { bankAccounts } from "./bank-accounts";
import { oneOf, uuidPrimaryKey } from "./columns";

/** An API key as the event names it: kept as it was, so a revoked or renamed key still reads right. */
export interface EventApiKey {
  uuid: string;
  name: string;
  prefix: string;
}

/**
 * The activity trail (docs/spec/extensions.md §3): one row per operation on an account, written in
 * the same transaction as the change, so it exists exactly when the change committed. Deleting the
 * account deletes its events. `seq` orders events of one account as they were written (two events of
 * one operation share `occurred_at`).
 */
export const accountEvents = pgTable(
  "account_events",
  {
    id: uuidPrimaryKey(),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity().notNull(),
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "cascade" }),
    type: varchar("type", { length: 48 }).$type<ActivityEventType>().notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
    actorKind: varchar("actor_kind", { length: 16 }).$type<ActorKind>().notNull(),
    /** The username when the change was made (the `actor` filter reads it); null for the scheduler. */
    actorUsername: varchar("actor_username", { length: 150 }),
    actorApiKey: jsonb("actor_api_key").$type<EventApiKey>(),
    requestId: varchar("request_id", { length: 128 }).notNull(),
    summary: text("summary").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    index("account_events_account_idx").on(t.bankAccountId, t.seq),
    index("account_events_occurred_idx").on(t.occurredAt),
    check("account_events_type", oneOf(t.type, ACTIVITY_EVENT_TYPES)),
    check("account_events_actor_kind", oneOf(t.actorKind, ACTOR_KINDS)),
  ],
);
