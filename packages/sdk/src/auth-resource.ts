import { loginRoute, logoutRoute, refreshRoute } from "@allot/contract/auth/routes";
import { refreshCookieHeader, refreshTokenFrom } from "./refresh-cookie";
import type { GeneratedResources } from "./resources";
import type { RouteInput } from "./route-types";
import type { RequestOptions, Transport } from "./transport";

export interface Session {
  access: string;
  /** The refresh cookie's value: keep it to call `auth.refresh` when the access token expires. */
  refreshToken: string | null;
}

/**
 * The token endpoints keep the refresh token in a cookie; a program has no cookie jar, so these
 * methods hand the cookie's value over and take it back as an argument.
 */
export type AuthResource = Omit<GeneratedResources["auth"], "login" | "refresh" | "logout"> & {
  login(input: RouteInput<typeof loginRoute>, options?: RequestOptions): Promise<Session>;
  /** A new access token; `refreshToken` is the rotated one, or the one given when not rotated. */
  refresh(input: { refreshToken: string }, options?: RequestOptions): Promise<Session>;
  /** Ends the session of the refresh token; always succeeds. */
  logout(input?: { refreshToken?: string | null }, options?: RequestOptions): Promise<void>;
};

export function authResource(generated: GeneratedResources["auth"], send: Transport): AuthResource {
  const withCookie = (refreshToken: string | null | undefined, options: RequestOptions = {}) =>
    refreshToken
      ? { ...options, headers: { ...options.headers, cookie: refreshCookieHeader(refreshToken) } }
      : options;

  return {
    ...generated,
    async login(input, options) {
      const response = await send(loginRoute, input, options);
      const { access } = response.body as { access: string };
      return { access, refreshToken: refreshTokenFrom(response.headers["set-cookie"]) };
    },
    async refresh({ refreshToken }, options) {
      const response = await send(refreshRoute, {}, withCookie(refreshToken, options));
      const { access } = response.body as { access: string };
      return { access, refreshToken: refreshTokenFrom(response.headers["set-cookie"]) ?? refreshToken };
    },
    async logout(input = {}, options) {
      await send(logoutRoute, {}, withCookie(input.refreshToken, options));
    },
  };
}
