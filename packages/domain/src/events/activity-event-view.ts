import type { ActivityEvent } from "@allot/contract/activity/activity-event";
import type { accountEvents } from "@allot/db/schema/account-events";

type AccountEventRow = typeof accountEvents.$inferSelect;

/**
 * The wire ActivityEvent (type and actor kind are held to their lists by check constraints; type
 * and data were written together by recordEvent, from one AccountChange of that type).
 */
export const toActivityEventView = (row: AccountEventRow): ActivityEvent =>
  ({
    id: row.id,
    type: row.type,
    occurred_at: row.occurredAt.toISOString(),
    bank_account: row.bankAccountId,
    actor: { kind: row.actorKind, username: row.actorUsername, api_key: row.actorApiKey },
    request_id: row.requestId,
    summary: row.summary,
    data: row.data,
  }) as ActivityEvent;
