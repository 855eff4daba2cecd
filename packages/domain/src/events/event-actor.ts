import type { ActorKind } from "@allot/contract/activity/activity-event-types";
import type { EventApiKey } from "@allot/db/schema/account-events";
import type { Actor } from "../shared/actor";
import type { PublicContext } from "../shared/use-case-context";

/** Who made a change, as an event records it. */
export interface EventActor {
  kind: ActorKind;
  username: string | null;
  apiKey: EventApiKey | null;
}

/**
 * A signed-in caller is a `user` (login session) or an `api_key`; work with no caller is the
 * `scheduler`'s when a scheduled job does it, else `system`'s (an admin command).
 */
export function eventActorOf(ctx: PublicContext & { actor?: Actor | null }): EventActor {
  // A public route's context may carry `actor: null` (nobody signed in).
  const { actor } = ctx;
  if (actor)
    return actor.apiKey
      ? { kind: "api_key", username: actor.username, apiKey: actor.apiKey }
      : { kind: "user", username: actor.username, apiKey: null };
  return { kind: ctx.request.source === "scheduler" ? "scheduler" : "system", username: null, apiKey: null };
}

/** The actor as a summary sentence starts: the username, or the process that acted. */
export function actorName(actor: EventActor): string {
  if (actor.username) return actor.username;
  return actor.kind === "scheduler" ? "The scheduler" : "Allot";
}
