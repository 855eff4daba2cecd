import { ACTIVITY_EVENT_DATA } from "@allot/contract/activity/activity-event-data";
import { ACTIVITY_EVENT_TYPES } from "@allot/contract/activity/activity-event-types";
import { describe, expect, it } from "vitest";
import { EXAMPLE_EVENT_DATA } from "./event-examples";

describe("the example event data", () => {
  it.each(ACTIVITY_EVENT_TYPES)("of %s is what its contract schema takes, unchanged", (type) => {
    const data = EXAMPLE_EVENT_DATA[type];
    expect(ACTIVITY_EVENT_DATA[type].parse(data)).toEqual(data);
  });
});
