/** Registers a clean-up step (stop a server, drop a database) to run when the bench ends. */
export type Defer = (cleanup: () => Promise<unknown>) => void;

/**
 * Clean-up steps run once, newest first, whether the run ends, fails or is interrupted. A step
 * deferred after clean-up began (the run was still starting something) runs straight away.
 */
export function createCleanups() {
  const steps: Array<() => Promise<unknown>> = [];
  let running: Promise<void> | undefined;
  const defer: Defer = (cleanup) => {
    if (running) running = running.then(() => attempt(cleanup));
    else steps.push(cleanup);
  };
  const runAll = () => {
    running ??= (async () => {
      for (const step of steps.reverse()) await attempt(step);
    })();
    return running;
  };
  return { defer, runAll };
}

async function attempt(step: () => Promise<unknown>) {
  try {
    await step();
  } catch (error) {
    console.error("Clean-up step failed:", error);
  }
}
