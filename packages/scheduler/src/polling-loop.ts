/** A pass repeated on an interval; `stop` waits for one under way. */
export interface PollingLoop {
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
  const tick = () => {
    running ??= pass()
      .then(() => undefined)
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, everyMs);
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
