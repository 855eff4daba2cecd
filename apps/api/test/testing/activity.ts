import type { ActivityEvent } from "@allot/contract/activity/activity-event";
import type { ActivityEventType } from "@allot/contract/activity/activity-event-types";
import { activityRoutes } from "@allot/contract/activity/routes";
import type { TestApp } from "./test-app";
import type { Caller } from "./test-client";

/** An account's activity as `caller` reads it over HTTP, newest first; only `types` when given. */
export async function activityOf(t: TestApp, caller: Caller, accountId: string, types?: ActivityEventType[]) {
  const response = await t
    .as(caller)
    .call(activityRoutes.list, { id: accountId, type: types, page_size: 500 });
  if (response.statusCode !== 200) throw new Error(`activity: ${response.statusCode} ${response.body}`);
  return response.json().results;
}

/** The event as one of `type`, its data typed by it; throws when it is another (or none). */
export function eventOfType<T extends ActivityEventType>(event: ActivityEvent | undefined, type: T) {
  if (event?.type !== type) throw new Error(`expected a ${type} event, got ${event?.type ?? "none"}`);
  return event as ActivityEvent<T>;
}

/** How many events an account's activity holds, as `caller` reads it. */
export async function activityCount(t: TestApp, caller: Caller, accountId: string) {
  const response = await t.as(caller).call(activityRoutes.list, { id: accountId, page_size: 1 });
  if (response.statusCode !== 200) throw new Error(`activity: ${response.statusCode} ${response.body}`);
  return response.json().count;
}

/** The actor of a change made in `user`'s login session. */
export const sessionActor = (user: { username: string }) => ({
  kind: "user" as const,
  username: user.username,
  api_key: null,
});
