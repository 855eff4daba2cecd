import type { RetryNotice } from "@allot/sdk/transport";

/**
 * What a person reads while the SDK waits to resend a call: a throttled wait (a 429 and its
 * Retry-After) or a write whose first attempt the server is still running. Connection resets are
 * retried within a fraction of a second and go unsaid (null).
 */
export function retryNoticeText(notice: RetryNotice): string | null {
  const seconds = Math.ceil(notice.delayMs / 1000);
  const when = seconds === 0 ? "retrying now" : `retrying in ${seconds} s`;
  if (notice.reason === "throttled") return `Rate limited by the server: ${when}`;
  if (notice.reason === "key_in_progress")
    return `The server is still running the first attempt of this write: ${when}`;
  return null;
}
