import { authRoutes } from "@allot/contract/auth/routes";
import type { RouteSpec } from "@allot/contract/http/route";
import { secondsUntilExpiry } from "./access-token-claims";
import { isApiError } from "./api-error";
import { refreshCookieHeader, refreshTokenFrom } from "./refresh-cookie";
import type { RequestOptions, Transport } from "./transport";

export interface Session {
  /** The access token (JWT) sent as `Authorization: Bearer`; empty until a resumed session refreshes. */
  access: string;
  /** The refresh cookie's value, rotated by each refresh: store it to resume the session later. */
  refreshToken: string | null;
}

/**
 * `apiKey`: sent as `Api-Key`. `bearer`: a fixed access token, never refreshed. `refreshToken`
 * (with the last `access`, if kept): a login session the client refreshes on its own.
 */
export type Credentials = { apiKey: string } | { bearer: string } | { refreshToken: string; access?: string };

export interface SessionOptions {
  auth?: Credentials;
  /** Called (and awaited) with every new session, after a login or a refresh: store `refreshToken`. */
  onSession?: (session: Session) => void | Promise<void>;
  /** Refresh before a call when the access token expires within this many seconds (default 30). */
  refreshMarginSeconds?: number;
}

export interface SessionAuth {
  /** The transport with the client's credential, refreshing the session when its token expires. */
  send: Transport;
  /** The current session (null for an API key, or after logout). */
  readonly session: Session | null;
  /** Takes a session from a login as the client's own (ignored by an API key client). */
  adopt(session: Session): Promise<void>;
  /** Exchanges a refresh token (by default the client's) for a new session; adopted when it was the client's. */
  refresh(refreshToken?: string, options?: RequestOptions): Promise<Session>;
  /** Forgets the session if the refresh token is the client's (after logout). */
  forget(refreshToken: string | null | undefined): void;
}

const DEFAULT_REFRESH_MARGIN_SECONDS = 30;

export const withCookie = (refreshToken: string | null | undefined, options: RequestOptions = {}) =>
  refreshToken
    ? { ...options, headers: { ...options.headers, cookie: refreshCookieHeader(refreshToken) } }
    : options;

const withAuthorization = (authorization: string, options: RequestOptions = {}) => ({
  ...options,
  headers: { ...options.headers, authorization },
});

/** The token endpoints authenticate by cookie or password: never send them a bearer, never refresh for them. */
const isTokenRoute = (route: RouteSpec) => route.path.startsWith("/token/");

export function sessionAuth(rawSend: Transport, options: SessionOptions): SessionAuth {
  const credentials = options.auth;
  const apiKey = credentials && "apiKey" in credentials ? credentials.apiKey : null;
  const margin = options.refreshMarginSeconds ?? DEFAULT_REFRESH_MARGIN_SECONDS;
  let session: Session | null = null;
  if (credentials && "bearer" in credentials) session = { access: credentials.bearer, refreshToken: null };
  if (credentials && "refreshToken" in credentials) {
    session = { access: credentials.access ?? "", refreshToken: credentials.refreshToken };
  }
  // One refresh at a time: the server rotates the refresh token, so a second concurrent refresh
  // with the same token would be refused (and might end the session as a replay).
  let refreshing: Promise<Session> | null = null;

  async function exchange(refreshToken: string, requestOptions?: RequestOptions): Promise<Session> {
    const response = await rawSend(authRoutes.refresh, {}, withCookie(refreshToken, requestOptions));
    const { access } = response.body as { access: string };
    return { access, refreshToken: refreshTokenFrom(response.headers["set-cookie"]) ?? refreshToken };
  }

  async function adopt(next: Session) {
    if (apiKey) return;
    session = next;
    await options.onSession?.(next);
  }

  function refreshOwn(requestOptions?: RequestOptions): Promise<Session> {
    const refreshToken = session?.refreshToken;
    if (!refreshToken) return Promise.reject(new Error("SDK: this client holds no refresh token"));
    refreshing ??= exchange(refreshToken, requestOptions)
      .then(async (next) => {
        await adopt(next);
        return next;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  const expiresSoon = (access: string) => {
    if (access === "") return true;
    const left = secondsUntilExpiry(access);
    return left !== null && left <= margin;
  };

  const send: Transport = async (route, input, requestOptions) => {
    if (apiKey) return rawSend(route, input, withAuthorization(`Api-Key ${apiKey}`, requestOptions));
    if (!session || isTokenRoute(route)) return rawSend(route, input, requestOptions);
    if (refreshing) await refreshing;
    else if (session.refreshToken && expiresSoon(session.access)) await refreshOwn(requestOptions);
    const sent = session.access;
    try {
      return await rawSend(route, input, withAuthorization(`Bearer ${sent}`, requestOptions));
    } catch (error) {
      if (!isApiError(error, 401) || !session?.refreshToken) throw error;
      // Another call may have refreshed while this one was in flight: then just resend.
      if (session.access === sent) await refreshOwn(requestOptions);
      const access = session?.access ?? sent;
      return rawSend(route, input, withAuthorization(`Bearer ${access}`, requestOptions));
    }
  };

  return {
    send,
    get session() {
      return session;
    },
    adopt,
    async refresh(refreshToken, requestOptions) {
      if (refreshToken === undefined || refreshToken === session?.refreshToken)
        return refreshOwn(requestOptions);
      const next = await exchange(refreshToken, requestOptions);
      if (!session) await adopt(next);
      return next;
    },
    forget(refreshToken) {
      if (!refreshToken || refreshToken === session?.refreshToken) session = null;
    },
  };
}
