const FIRST_RETRY_MS = 30_000;
const LONGEST_WAIT_MS = 60 * 60_000;

/**
 * How long to wait after a failed send before trying again: 30 s, doubling each time, at most an
 * hour. A message is never given up on: a mail provider's outage ends, and the message still matters.
 */
export function retryDelayMs(failedAttempts: number): number {
  const exponent = Math.max(0, Math.min(failedAttempts - 1, 20));
  return Math.min(FIRST_RETRY_MS * 2 ** exponent, LONGEST_WAIT_MS);
}
