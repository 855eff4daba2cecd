import type { ThrottleRate } from "./throttle-rate";

export interface ThrottleCheck {
  /** Who is counted, e.g. `user:42` or `anon:127.0.0.1`. */
  key: string;
  rates: ThrottleRate[];
}

/** One fixed-window counter a request is counted against. */
export interface ThrottleWindow {
  /** `<check key>|<window seconds>`: one counter per caller and window length. */
  key: string;
  /** Unix seconds at which the current window opened (windows are aligned to the epoch). */
  windowStart: number;
  windowSeconds: number;
  limit: number;
}

/**
 * The counters one request increments, sorted by key: one per check and window length, with the
 * strictest limit when a check names one window length twice. Every store (database, Redis)
 * counts the same windows, so the limits mean the same whichever holds the counters.
 */
export function throttleWindows(checks: ThrottleCheck[], now: Date): ThrottleWindow[] {
  const nowSeconds = now.getTime() / 1000;
  const windows = new Map<string, ThrottleWindow>();
  for (const { key, rates } of checks) {
    for (const { limit, windowSeconds } of rates) {
      const counterKey = `${key}|${windowSeconds}`;
      const existing = windows.get(counterKey);
      if (!existing || existing.limit > limit) {
        const windowStart = Math.floor(nowSeconds / windowSeconds) * windowSeconds;
        windows.set(counterKey, { key: counterKey, windowStart, windowSeconds, limit });
      }
    }
  }
  return [...windows.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
}

/**
 * Seconds until the caller may try again: 0 when every count is within its limit, else the time
 * to the end of the last window over its limit (at least 1).
 */
export function retryAfterSeconds(
  windows: ThrottleWindow[],
  hits: (window: ThrottleWindow) => number,
  now: Date,
): number {
  const nowSeconds = now.getTime() / 1000;
  let retryAfter = 0;
  for (const window of windows) {
    if (hits(window) > window.limit) {
      const wait = Math.ceil(window.windowStart + window.windowSeconds - nowSeconds);
      retryAfter = Math.max(retryAfter, wait, 1);
    }
  }
  return retryAfter;
}
