/**
 * Seconds to wait from a `Retry-After` header: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
 * Null when absent or unreadable.
 */
export function parseRetryAfter(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  // An HTTP-date names its weekday and month; Date.parse would also read "-5" as a year.
  const at = /^[A-Za-z]{3},/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
