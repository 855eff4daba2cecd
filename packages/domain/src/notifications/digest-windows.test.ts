import { describe, expect, it } from "vitest";
import { lastDigestWindow } from "./digest-windows";

const LA = "America/Los_Angeles";

describe("lastDigestWindow", () => {
  it.each([
    // 2026-11-23 is a Monday; Los Angeles is UTC-8 in November.
    ["daily_morning", "2026-11-23T16:00:00Z", "2026-11-23T15:00:00.000Z"], // 08:00 local: today 07:00
    ["daily_morning", "2026-11-23T14:59:00Z", "2026-11-22T15:00:00.000Z"], // 06:59 local: yesterday's
    ["daily_evening", "2026-11-23T16:00:00Z", "2026-11-23T02:00:00.000Z"], // yesterday 18:00 local
    ["twice_daily", "2026-11-24T03:00:00Z", "2026-11-24T02:00:00.000Z"], // 19:00 local: today 18:00
    ["twice_daily", "2026-11-23T20:00:00Z", "2026-11-23T15:00:00.000Z"], // 12:00 local: today 07:00
    ["weekly_friday", "2026-11-23T16:00:00Z", "2026-11-20T15:00:00.000Z"], // last Friday 07:00
    ["weekly_sunday", "2026-11-22T15:00:00Z", "2026-11-22T15:00:00.000Z"], // Sunday 07:00 exactly
    ["weekly_saturday", "2026-11-22T15:00:00Z", "2026-11-21T15:00:00.000Z"],
  ] as const)("%s at %s → %s", (frequency, now, window) => {
    expect(lastDigestWindow(new Date(now), LA, frequency).toISOString()).toBe(window);
  });

  it("reads the window in the user's zone", () => {
    expect(
      lastDigestWindow(new Date("2026-11-23T08:00:00Z"), "Europe/Berlin", "daily_morning").toISOString(),
    ).toBe("2026-11-23T06:00:00.000Z");
  });
});
