import { describe, expect, it } from "vitest";
import { retryDelayMs } from "./retry-schedule";

describe("webhook retry schedule", () => {
  it("waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then gives up after the eighth attempt", () => {
    const waits = [1, 2, 3, 4, 5, 6, 7].map((attempts) => retryDelayMs(attempts));
    expect(waits).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(retryDelayMs(8)).toBeNull();
    expect(retryDelayMs(9)).toBeNull();
  });
});
