const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The waits after each failed attempt (docs/spec/extensions.md §4): eight attempts in about 27 hours. */
const WAITS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

/** How long after its `attemptsMade`-th failed attempt a delivery is tried again; null: it has failed. */
export function retryDelayMs(attemptsMade: number): number | null {
  return WAITS_MS[attemptsMade - 1] ?? null;
}

/** A webhook whose every attempt has failed for this long is disabled and its owner emailed. */
export const FAILING_DISABLES_AFTER_MS = 5 * 24 * HOUR;
