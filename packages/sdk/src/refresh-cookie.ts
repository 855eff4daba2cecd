/** The cookie the API keeps the refresh token in (docs/spec/operations.md §Authentication and users). */
export const REFRESH_COOKIE = "refresh_token";

/** The refresh token a response sets, or null when it sets none (or clears it). */
export function refreshTokenFrom(setCookie: string | string[] | undefined): string | null {
  for (const header of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
    const [pair = ""] = header.split(";");
    const separator = pair.indexOf("=");
    if (separator < 0 || pair.slice(0, separator).trim() !== REFRESH_COOKIE) continue;
    const value = decodeURIComponent(pair.slice(separator + 1).trim());
    return value === "" ? null : value;
  }
  return null;
}

export const refreshCookieHeader = (refreshToken: string) =>
  `${REFRESH_COOKIE}=${encodeURIComponent(refreshToken)}`;
