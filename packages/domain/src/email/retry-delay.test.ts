import { describe, expect, it } from "vitest";
import { retryDelayMs } from "./retry-delay";

describe("retryDelayMs", () => {
  it.each([
    [1, 30_000],
    [2, 60_000],
    [3, 120_000],
    [7, 1_920_000],
    [8, 3_600_000],
    [500, 3_600_000],
  ])("after %i failed attempts waits %i ms", (attempts, ms) => {
    expect(retryDelayMs(attempts)).toBe(ms);
  });
});
