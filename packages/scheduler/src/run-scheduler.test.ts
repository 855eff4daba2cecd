import type { DatabaseHandle } from "@allot/db/create-database";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Job } from "./jobs";
import { startScheduler } from "./run-scheduler";
import type { SchedulerRun } from "./scheduler";

// Clean-up jobs on the embedded engine take no lock and touch only what the job touches.
const handle = { engine: "pglite", db: {} } as unknown as DatabaseHandle;
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the scheduler loop", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs a pass at once, drops a tick that would overlap, and stop waits for the pass", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    let calls = 0;
    let finish = () => {};
    const job: Job = {
      name: "slow",
      everyMs: 0,
      lockId: 4_216_904,
      run: () => {
        calls += 1;
        return new Promise((resolve) => {
          finish = () => resolve("ok");
        });
      },
    };
    const seen: SchedulerRun[] = [];
    const log = { info() {}, warn() {}, error() {} };
    const loop = startScheduler(handle, {
      jobs: [job],
      accountJobs: [],
      log,
      onRun: (run) => seen.push(run),
    });
    await settle();
    expect(calls).toBe(1);
    vi.advanceTimersByTime(60_000);
    await settle();
    expect(calls).toBe(1);

    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await settle();
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(seen).toEqual([{ job: "slow", status: "done", result: "ok" }]);
    vi.advanceTimersByTime(180_000);
    await settle();
    expect(calls).toBe(1);
  });
});
