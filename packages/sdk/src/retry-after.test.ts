import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "./retry-after";

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");

  it.each([
    ["7", 7],
    [" 0 ", 0],
    [["3", "9"], 3],
    ["Wed, 01 Jan 2025 00:00:30 GMT", 30],
    ["Tue, 31 Dec 2024 23:59:00 GMT", 0],
    ["soon", null],
    ["-5", null],
    ["", null],
    [undefined, null],
  ] as const)("%j → %j", (header, expected) => {
    expect(parseRetryAfter(header as string | string[] | undefined, now)).toBe(expected);
  });
});
