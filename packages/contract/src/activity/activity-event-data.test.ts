import { describe, expect, it } from "vitest";
import { ACTIVITY_EVENT_DATA, ACTIVITY_EVENT_EXAMPLES } from "./activity-event-data";
import { ACTIVITY_EVENT_TYPES } from "./activity-event-types";

describe("the example data of each event type", () => {
  it.each(ACTIVITY_EVENT_TYPES)("of %s is what its schema takes, unchanged", (type) => {
    const data = ACTIVITY_EVENT_EXAMPLES[type];
    expect(ACTIVITY_EVENT_DATA[type].parse(data)).toEqual(data);
  });
});
