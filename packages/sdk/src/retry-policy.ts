/*
 * When a failed attempt is worth another:
 * - a 429 after its Retry-After (any method: the server refused before doing anything);
 * - a 409 `idempotency_key_in_progress` after its Retry-After: an earlier attempt with the same
 *   key (one whose connection was reset) is still running, and the next answer replays its result;
 * - a connection reset, for idempotent methods and for a write that carries an Idempotency-Key:
 *   a POST or PATCH may have been applied before the socket died, and only the key makes its
 *   resend answer that first effect instead of applying it again.
 */

export interface RetryPolicy {
  /** Retries after the first attempt, for 429s, keys in progress and connection resets alike. */
  retries: number;
  /** A 429 asking for a longer wait than this is thrown at once rather than waited out. */
  maxRetryAfterSeconds: number;
}

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/** Socket-level failures that mean "the connection went away", not "the server said no". */
const RESET_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);

/** Without a Retry-After header: 1 s, 2 s, 4 s … */
const throttleBackoffSeconds = (attempt: number) => 2 ** attempt;
/** A reset is usually a stale keep-alive socket: try again almost at once, then back off. */
const resetBackoffMs = (attempt: number) => 50 * 2 ** attempt;

/** Milliseconds to wait before resending a refused attempt (429, key in progress), or null to throw it. */
export function retryAfterDelay(retryAfter: number | null, attempt: number, policy: RetryPolicy) {
  const seconds = retryAfter ?? throttleBackoffSeconds(attempt);
  if (attempt >= policy.retries || seconds > policy.maxRetryAfterSeconds) return null;
  return seconds * 1000;
}

/** An answer that asks for the same request again shortly: 429, or its key's first request still running. */
export function isRefusedForNow(status: number, body: unknown, carriesKey: boolean): boolean {
  if (status === 429) return true;
  return (
    carriesKey &&
    status === 409 &&
    (body as { code?: unknown } | null)?.code === "idempotency_key_in_progress"
  );
}

/** Milliseconds to wait before resending after a network error, or null to throw it. */
export function resetRetryDelay(
  method: string,
  carriesKey: boolean,
  error: unknown,
  attempt: number,
  policy: RetryPolicy,
) {
  const safeToResend = IDEMPOTENT_METHODS.has(method) || carriesKey;
  if (attempt >= policy.retries || !safeToResend || !isConnectionReset(error)) return null;
  return resetBackoffMs(attempt);
}

export function isConnectionReset(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && RESET_CODES.has(code)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
