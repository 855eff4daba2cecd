/** A pass repeated on an interval; `stop` waits for one under way. */
export interface PollingLoop {
  /** Runs a pass now (or right after the one under way, which may have looked before the news). */
  nudge(): void;
  stop(): Promise<void>;
}

/**
 * Runs `pass` now and every `everyMs`, skipping a tick that finds the previous pass still running
 * (a slow pass never piles up behind itself). A failed pass is `onError`'s, and the loop goes on.
 */
export function startPolling(
  everyMs: number,
  pass: () => Promise<unknown>,
  onError: (error: unknown) => void,
): PollingLoop {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const tick = () => {
    running ??= pass()
      .then(() => undefined)
      .catch(onError)
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          tick();
        }
      });
  };
  const timer = setInterval(tick, everyMs);
  tick();
  return {
    nudge() {
      if (stopped) return;
      if (running) again = true;
      else tick();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (running) await running;
    },
  };
}
