import { describe, expect, it } from "vitest";
import { normalizeTimeZone } from "./time-zone";

describe("normalizeTimeZone", () => {
  it.each([
    ["America/Los_Angeles", "America/Los_Angeles"],
    ["Europe/Paris", "Europe/Paris"],
    ["  Asia/Tokyo ", "Asia/Tokyo"],
    ["america/new_york", "America/New_York"],
    ["UTC", "UTC"],
    ["utc", "UTC"],
    ["Etc/UTC", "Etc/UTC"],
    ["Europe/Kyiv", "Europe/Kyiv"],
    ["US/Pacific", "US/Pacific"],
  ])("accepts %j as %j", (input, stored) => {
    expect(normalizeTimeZone(input)).toBe(stored);
  });

  it.each([
    "Mars/Olympus",
    "",
    "   ",
    "+02:00",
    "-0500",
    "Europe/Paris; drop table",
    "../../etc/passwd",
    "Not a zone",
  ])("refuses %j", (input) => {
    expect(normalizeTimeZone(input)).toBeNull();
  });
});
