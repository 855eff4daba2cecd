import { ACTIVITY_EVENT_EXAMPLES } from "@allot/contract/activity/activity-event-data";
import type { ActivityEventType } from "@allot/contract/activity/activity-event-types";
import type { AccountChange } from "../../src/events/record-event";

/** A change of `type` to the account, with the example data of its type. */
export const exampleChange = <T extends ActivityEventType>(
  accountId: string,
  type: T,
  says: string,
): AccountChange<T> => ({ accountId, type, says, data: ACTIVITY_EVENT_EXAMPLES[type] });
