import type { IssuedCredentials } from "@allot/domain/auth/sessions";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ApiConfig } from "../config";

const REFRESH_COOKIE = "refresh_token";
// Sent only to the token endpoints (and both with and without a trailing slash).
const COOKIE_PATH = "/api/token";

/**
 * The refresh token the request's cookie carries. Cookies are read here only, not parsed on every
 * request (app.ts registers @fastify/cookie without its parsing hook): only the token endpoints use one.
 */
export function refreshTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? request.server.parseCookie(header)[REFRESH_COOKIE] : undefined;
}

export function setRefreshCookie(reply: FastifyReply, config: ApiConfig, credentials: IssuedCredentials) {
  reply.setCookie(REFRESH_COOKIE, credentials.refreshToken, {
    httpOnly: true,
    secure: config.secureCookies,
    sameSite: "strict",
    path: COOKIE_PATH,
    expires: credentials.refreshExpiresAt,
    // Rounded up: the few milliseconds since the session was issued must not shave off a second.
    maxAge: Math.ceil((credentials.refreshExpiresAt.getTime() - Date.now()) / 1000),
  });
}

export function clearRefreshCookie(reply: FastifyReply, config: ApiConfig) {
  reply.clearCookie(REFRESH_COOKIE, {
    httpOnly: true,
    secure: config.secureCookies,
    sameSite: "strict",
    path: COOKIE_PATH,
  });
}
