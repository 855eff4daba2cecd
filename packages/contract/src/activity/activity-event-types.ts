/**
 * Every type of the activity trail (docs/spec/extensions.md §3): one event per operation, named
 * `<object>.<what happened>`. Webhooks subscribe to these names, so a new one is an API change.
 */
export const ACTIVITY_EVENT_TYPES = [
  "bank_account.created",
  "bank_account.updated",
  "bank_account.imported",
  "bank_account.owner_added",
  "budget.created",
  "budget.updated",
  "budget.paused",
  "budget.resumed",
  "budget.archived",
  "budget.deleted",
  "budget.completed",
  "transaction.created",
  "transaction.updated",
  "transaction.deleted",
  "transaction.posted",
  "transaction.split",
  "transaction.enriched",
  "transfer.created",
  "funding.completed",
  "funding.underfunded",
  "import.synced",
  "invitation.created",
  "invitation.accepted",
  "invitation.declined",
  "invitation.cancelled",
] as const;

export type ActivityEventType = (typeof ACTIVITY_EVENT_TYPES)[number];

/** Who made a change: a login session, an API key, the scheduler, or anything else (admin commands). */
export const ACTOR_KINDS = ["user", "api_key", "scheduler", "system"] as const;

export type ActorKind = (typeof ACTOR_KINDS)[number];
