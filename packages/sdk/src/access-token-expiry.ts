/**
 * Seconds until a JWT access token's `exp`, read without verifying (the server verifies); null when
 * the token carries no readable `exp`. Lets the client refresh before sending a token about to die.
 */
export function secondsUntilExpiry(token: string, now = Date.now()): number | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    return typeof payload?.exp === "number" ? payload.exp - now / 1000 : null;
  } catch {
    return null;
  }
}
