/*
 * What the client reads from a JWT access token without verifying it (the server verifies): when
 * it expires, so the client refreshes before sending a token about to die, and whose it is, so a
 * write journal tells one user's writes from another's without keeping the token.
 */

/**
 * Seconds until a JWT access token's `exp`; null when the token carries no readable `exp`.
 */
export function secondsUntilExpiry(token: string, now = Date.now()): number | null {
  const exp = claimsOf(token)?.exp;
  return typeof exp === "number" ? exp - now / 1000 : null;
}

/** The token's `sub` (the user's id); null when it carries no readable one. */
export function subjectOf(token: string): string | null {
  const sub = claimsOf(token)?.sub;
  return typeof sub === "string" && sub !== "" ? sub : null;
}

function claimsOf(token: string): Record<string, unknown> | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    return typeof payload === "object" && payload !== null ? payload : null;
  } catch {
    return null;
  }
}
