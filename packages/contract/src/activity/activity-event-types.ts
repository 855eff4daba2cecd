import { ACTIVITY_EVENT_DATA } from "./activity-event-data";

/**
 * Every type of the activity trail (docs/spec/extensions.md §3): one event per operation, named
 * `<object>.<what happened>`. Webhooks subscribe to these names, so a new one is an API change.
 * A type is one entry of `ACTIVITY_EVENT_DATA` (its name and its data's schema); this list, in that
 * order, is what the wire's enums and the database's CHECK are built from.
 */
export type ActivityEventType = keyof typeof ACTIVITY_EVENT_DATA;

export const ACTIVITY_EVENT_TYPES = Object.keys(ACTIVITY_EVENT_DATA) as [
  ActivityEventType,
  ...ActivityEventType[],
];

/** Who made a change: a login session, an API key, the scheduler, or anything else (admin commands). */
export const ACTOR_KINDS = ["user", "api_key", "scheduler", "system"] as const;

export type ActorKind = (typeof ACTOR_KINDS)[number];
