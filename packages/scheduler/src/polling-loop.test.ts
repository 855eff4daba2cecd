import { describe, expect, it } from "vitest";
import { startPolling } from "./polling-loop";

const HOUR_MS = 3_600_000;

/** A pass that waits until the test lets it finish; counts how many began. */
function heldPasses() {
  const releases: (() => void)[] = [];
  let began = 0;
  return {
    pass: () => {
      began += 1;
      return new Promise<void>((resolve) => releases.push(resolve));
    },
    get began() {
      return began;
    },
    finishOne: async () => {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe("a polling loop", () => {
  it("runs a pass at once, and a nudge runs one more (after the pass under way, never beside it)", async () => {
    const passes = heldPasses();
    const loop = startPolling(HOUR_MS, passes.pass, () => {});
    expect(passes.began).toBe(1);
    // Nudged twice while the first runs: one more pass, after it.
    loop.nudge();
    loop.nudge();
    expect(passes.began).toBe(1);
    await passes.finishOne();
    expect(passes.began).toBe(2);
    await passes.finishOne();
    expect(passes.began).toBe(2);
    // Idle: a nudge starts one at once.
    loop.nudge();
    expect(passes.began).toBe(3);
    const stopped = loop.stop();
    loop.nudge();
    await passes.finishOne();
    await stopped;
    expect(passes.began).toBe(3);
  });

  it("hands a failed pass to onError and goes on", async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const loop = startPolling(
      HOUR_MS,
      async () => {
        calls += 1;
        if (calls === 1) throw new Error("database away");
      },
      (error) => errors.push(error),
    );
    await new Promise((resolve) => setImmediate(resolve));
    loop.nudge();
    await loop.stop();
    expect(errors.map(String)).toEqual(["Error: database away"]);
    expect(calls).toBe(2);
  });
});
