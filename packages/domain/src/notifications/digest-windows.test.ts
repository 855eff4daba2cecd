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

  it.each([
    // Europe/Berlin springs forward 2025-03-30 (02:00 → 03:00): 07:00 is 07:00 +02:00.
    ["daily_morning", "2025-03-30T05:00:00Z", "2025-03-30T05:00:00.000Z"],
    ["daily_morning", "2025-03-30T05:30:00Z", "2025-03-30T05:00:00.000Z"],
    ["daily_morning", "2025-03-30T04:59:00Z", "2025-03-29T06:00:00.000Z"],
    ["twice_daily", "2025-03-30T16:30:00Z", "2025-03-30T16:00:00.000Z"],
    // It falls back 2025-10-26 (03:00 → 02:00): 07:00 is 07:00 +01:00.
    ["daily_morning", "2025-10-26T06:00:00Z", "2025-10-26T06:00:00.000Z"],
    ["daily_morning", "2025-10-26T05:59:00Z", "2025-10-25T05:00:00.000Z"],
    ["weekly_sunday", "2025-10-26T06:30:00Z", "2025-10-26T06:00:00.000Z"],
    ["twice_daily", "2025-10-26T17:30:00Z", "2025-10-26T17:00:00.000Z"],
  ] as const)("keeps 7 am and 6 pm on the day clocks change: %s at %s → %s", (frequency, now, window) => {
    expect(lastDigestWindow(new Date(now), "Europe/Berlin", frequency).toISOString()).toBe(window);
  });

  it("keeps 7 am on a day whose midnight does not exist (America/Santiago 2025-09-07)", () => {
    expect(
      lastDigestWindow(new Date("2025-09-07T12:00:00Z"), "America/Santiago", "daily_morning").getTime(),
    ).toBe(Date.parse("2025-09-07T07:00:00-03:00"));
  });
});
